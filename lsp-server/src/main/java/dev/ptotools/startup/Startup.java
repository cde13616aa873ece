package dev.ptotools.startup;

import java.io.InputStream;
import java.util.Set;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.language.DeepStack;
import dev.ptotools.language.PythonFrontEnd;

/**
 * What the jar's main does for a fast start, besides class data sharing ({@link ClassDataSharing}).
 * Measured on `pto check` of one small file (docs/cli.md, "Start-up").
 */
public final class Startup {

	/** The commands that parse and analyze: their pipeline is warmed up while the command line is read. */
	private static final Set<String> PIPELINE_COMMANDS = Set.of("check", "loops", "compile", "graph", "serve");

	/** A small program of every kind of statement the pipeline compiles, in the jar (docs/examples). */
	private static final String WARM_UP_PROGRAM = "training/single_chip.py";

	private Startup() {
	}

	/**
	 * System properties, each unless set already (-D wins): {@code guice_bytecode_gen_option=DISABLED},
	 * so that Guice calls constructors by reflection instead of generating a class per binding (the
	 * parser's injector is made once; such classes cannot be archived). The launchers also pass
	 * {@code -Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD=30}, which must be set before the JDK's
	 * own start-up reads it (see bin/pto).
	 */
	public static void tune() {
		setDefault("guice_bytecode_gen_option", "DISABLED");
	}

	private static void setDefault(String key, String value) {
		if (System.getProperty(key) == null) {
			System.setProperty(key, value);
		}
	}

	/**
	 * For the commands that analyze ({@link #PIPELINE_COMMANDS}), starts a background thread that makes
	 * the parser and runs a small program through the analyzer and the compile, so that their classes
	 * are initialized and their code run once while the main thread reads the command line and the
	 * configuration and finds the files (or, for the language server, waits for the editor): on two
	 * cores, the first file then starts on a warm pipeline. It never fails a run: an error here is left
	 * to the real work to meet.
	 */
	public static void warmUp(String[] args) {
		if (args.length == 0 || !PIPELINE_COMMANDS.contains(args[0]) || ClassDataSharing.disabled(System.getenv("PTO_WARMUP"))) {
			return;
		}
		Thread t = DeepStack.threadFactory().newThread(Startup::warmUpNow);
		t.setName("pto-warm-up");
		t.setDaemon(true);
		t.start();
	}

	static void warmUpNow() {
		try {
			PythonFrontEnd frontEnd = PythonFrontEnd.get();
			byte[] program;
			try (InputStream in = Startup.class.getResourceAsStream(WARM_UP_PROGRAM)) {
				if (in == null) {
					return;
				}
				program = in.readAllBytes();
			}
			Compiler.analyzer(CompileOptions.DEFAULT).analyze(frontEnd.parse(program), AnalyzerConfig.DEFAULT);
		} catch (Throwable e) {
			// only a warm-up
		}
	}
}
