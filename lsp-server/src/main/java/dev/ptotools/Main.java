package dev.ptotools;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import dev.ptotools.cli.CheckCommand;
import dev.ptotools.cli.CompileCommand;
import dev.ptotools.cli.LoopsCommand;
import dev.ptotools.lsp.ServeCommand;
import dev.ptotools.startup.ClassDataSharing;

/**
 * The {@code pto} command: the language server ({@code serve}) and the batch tools share one jar and
 * one pipeline. Exit codes: 0 success, 1 findings (or a failed check), 2 usage or internal error.
 */
@Command(name = "pto", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
		description = "Language server, analyzer and compiler for PyPTO programs.",
		subcommands = { ServeCommand.class, CheckCommand.class, LoopsCommand.class, CompileCommand.class,
				CommandLine.HelpCommand.class })
public final class Main {

	/** Reads the version Maven writes into pto-version.properties. */
	public static final class Version implements CommandLine.IVersionProvider {
		@Override
		public String[] getVersion() {
			return new String[] { "pto " + version() };
		}
	}

	public static String version() {
		return property("version", "dev");
	}

	/** The project's home page (SARIF's informationUri; the rule pages live under it). */
	public static String homepage() {
		String h = property("homepage", "");
		return h.isBlank() || h.startsWith("$") ? "https://github.com/pto-tools/pto-tools" : h;
	}

	private static String property(String key, String dflt) {
		try (InputStream in = Main.class.getResourceAsStream("/pto-version.properties")) {
			Properties p = new Properties();
			if (in != null) {
				p.load(in);
			}
			return p.getProperty(key, dflt);
		} catch (IOException e) {
			return dflt;
		}
	}

	public static CommandLine commandLine() {
		CommandLine cl = new CommandLine(new Main());
		cl.setCaseInsensitiveEnumValuesAllowed(true);
		cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
			commandLine.getErr().println("pto: internal error: " + ex);
			return 2;
		});
		cl.setExitCodeExceptionMapper(t -> 2);
		return cl;
	}

	public static void main(String[] args) {
		ClassDataSharing.maintain();
		int code = commandLine().execute(args);
		if (!(args.length > 0 && args[0].equals("serve"))) {
			System.exit(code);
		}
	}
}
