package dev.ptotools.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** git's ignore rules as the folder walks apply them. */
class GitIgnoresTest {

	@TempDir
	Path tmp;

	private Path repo() throws IOException {
		Path repo = tmp.resolve("repo").toAbsolutePath().normalize();
		Files.createDirectories(repo.resolve(".git/info"));
		Files.writeString(repo.resolve(".gitignore"), """
				# build folders anywhere, generated modules, but not the one we keep
				target/
				*_gen.py
				!keep_gen.py
				/top_only.py
				""");
		Files.createDirectories(repo.resolve("pkg/sub"));
		Files.writeString(repo.resolve("pkg/.gitignore"), "local.py\n!again_gen.py\n");
		Files.writeString(repo.resolve(".git/info/exclude"), "scratch/\n");
		return repo;
	}

	@Test
	void nestedFilesNegationsAnchorsAndInfoExclude() throws IOException {
		Path r = repo();
		GitIgnores g = new GitIgnores();
		assertTrue(g.ignored(r.resolve("target"), true), "a directory-only pattern");
		assertTrue(g.ignored(r.resolve("pkg/target"), true), "at any depth");
		assertFalse(g.ignored(r.resolve("target"), false), "directory-only: not a file of that name");
		assertTrue(g.ignored(r.resolve("pkg/a_gen.py"), false));
		assertFalse(g.ignored(r.resolve("keep_gen.py"), false), "a negation re-includes");
		assertTrue(g.ignored(r.resolve("top_only.py"), false));
		assertFalse(g.ignored(r.resolve("pkg/top_only.py"), false), "an anchored pattern is relative to its file");
		assertTrue(g.ignored(r.resolve("pkg/local.py"), false), "a nested .gitignore");
		assertTrue(g.ignored(r.resolve("pkg/sub/local.py"), false));
		assertFalse(g.ignored(r.resolve("local.py"), false), "a nested .gitignore rules only below it");
		assertFalse(g.ignored(r.resolve("pkg/again_gen.py"), false), "a deeper file wins over the root's");
		assertTrue(g.ignored(r.resolve("scratch"), true), ".git/info/exclude");
		assertFalse(g.ignored(r.resolve("pkg/ok.py"), false));
	}

	@Test
	void onlyInsideAGitWorkTreeAndANestedRepositoryStartsAfresh() throws IOException {
		Path r = repo();
		Path nested = Files.createDirectories(r.resolve("vendor/lib"));
		Files.writeString(nested.resolve(".git"), "gitdir: ../../.git/modules/lib\n");
		assertFalse(new GitIgnores().ignored(nested.resolve("x_gen.py"), false), "the outer .gitignore stops at a nested repository");

		Path plain = Files.createDirectories(tmp.resolve("plain"));
		Files.writeString(plain.resolve(".gitignore"), "*.py\n");
		assertFalse(new GitIgnores().ignored(plain.resolve("a.py"), false), "no .git: .gitignore is not git's here");
	}
}
