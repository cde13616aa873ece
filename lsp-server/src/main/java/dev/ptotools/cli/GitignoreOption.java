package dev.ptotools.cli;

import picocli.CommandLine.Option;

import dev.ptotools.config.GitIgnores;
import dev.ptotools.config.ProjectConfig;

/** {@code --[no-]respect-gitignore}, shared by the commands that walk folders (a picocli mixin). */
final class GitignoreOption {

	@Option(names = "--respect-gitignore", negatable = true,
			description = "Skip what git ignores (.gitignore files, .git/info/exclude) when walking folders; files named on"
					+ " the command line are always taken (default: [tool.pto] respect-gitignore, else on).")
	Boolean respect;

	/** What the walk asks about ignored paths, or null when git's ignores are not respected. */
	GitIgnores gitignores(ProjectConfig here) {
		return (respect != null ? respect : here.respectGitignore().orElse(true)) ? new GitIgnores() : null;
	}
}
