package dev.ptotools;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import dev.ptotools.cli.CheckCommand;
import dev.ptotools.cli.CompileCommand;
import dev.ptotools.cli.GraphCommand;
import dev.ptotools.cli.LoopsCommand;
import dev.ptotools.lsp.ServeCommand;
import dev.ptotools.startup.ClassDataSharing;
import dev.ptotools.startup.Startup;

/**
 * The {@code pto} command: the language server ({@code serve}) and the batch tools share one jar and
 * one pipeline. Exit codes: 0 success, 1 findings (or a failed check), 2 usage or internal error.
 */
@Command(name = "pto", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
		description = "Language server, analyzer and compiler for PyPTO programs.")
public final class Main {

	static {
		Startup.tune(); // before anything uses method handles or Guice
	}

	/** The subcommands, in the order help lists them (registered in {@link #commandLine(String)}). */
	private static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

	private static Map<String, Class<?>> subcommands() {
		Map<String, Class<?>> m = new LinkedHashMap<>();
		m.put("serve", ServeCommand.class);
		m.put("check", CheckCommand.class);
		m.put("loops", LoopsCommand.class);
		m.put("compile", CompileCommand.class);
		m.put("graph", GraphCommand.class);
		m.put("help", CommandLine.HelpCommand.class);
		return m;
	}

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

	/**
	 * The project's home page (SARIF's informationUri; the rule pages live under it), set at build time
	 * with -Dpto.homepage=URL; null when the build set none, rather than a made-up address.
	 */
	public static String homepage() {
		String h = property("homepage", "");
		return h.isBlank() || h.startsWith("$") ? null : h;
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
		return commandLine(null);
	}

	/**
	 * The command line; given the first argument of a run, only the subcommand it names is set up when it
	 * names one (other than help, which lists them all). Picocli reflects over every option of every
	 * subcommand it is given, and serve's reach the language server's classes: a tenth of a second of a
	 * small {@code pto check}, for commands that do not run.
	 */
	static CommandLine commandLine(String first) {
		CommandLine cl = new CommandLine(new Main());
		Class<?> only = first == null || first.equals("help") ? null : SUBCOMMANDS.get(first);
		for (Class<?> c : SUBCOMMANDS.values()) {
			if (only == null || c == only) {
				cl.addSubcommand(c);
			}
		}
		// the settings below reach the subcommands registered so far
		cl.setCaseInsensitiveEnumValuesAllowed(true);
		cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
			commandLine.getErr().println("pto: internal error: " + ex);
			return 2;
		});
		cl.setExitCodeExceptionMapper(t -> 2);
		cl.setParameterExceptionHandler(Main::usageError);
		return cl;
	}

	/**
	 * A usage error: the error, picocli's suggestions for a misspelt option or command, and one line on
	 * where help is, as git and ruff do (not the whole help, which buries the error); exit status 2.
	 */
	private static int usageError(CommandLine.ParameterException ex, String[] args) {
		CommandLine cmd = ex.getCommandLine();
		java.io.PrintWriter err = cmd.getErr();
		String message = ex.getMessage();
		if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.isUnknownOption() && !u.getUnmatched().isEmpty()
				&& !cmd.getSubcommands().isEmpty()) {
			message = "unknown command '" + u.getUnmatched().get(0) + "'"; // not "unmatched argument at index 0"
		}
		err.println("pto: error: " + (message.isEmpty() ? message
				: Character.toLowerCase(message.charAt(0)) + message.substring(1)));
		if (ex instanceof CommandLine.UnmatchedArgumentException u) {
			List<String> suggestions = u.getSuggestions();
			if (!suggestions.isEmpty()) {
				err.println("  did you mean: " + String.join(", ", suggestions) + "?");
			}
		}
		err.println("For more information, try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
		err.flush();
		return 2;
	}

	public static void main(String[] args) {
		ClassDataSharing.maintain();
		Startup.warmUp(args);
		int code = commandLine(args.length > 0 ? args[0] : null).execute(args);
		if (!(args.length > 0 && args[0].equals("serve"))) {
			System.exit(code);
		}
	}
}
