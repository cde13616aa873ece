package dev.ptotools.codegen;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code pto-compile [options] -o OUT INPUT...}: compiles .py files or folders into OUT. Exit status 0
 * when everything compiled, 1 when a program had errors, 2 on bad usage.
 */
public final class Main {

	private static final String USAGE = "usage: pto-compile [--header=fallback|pto|plain] [--runtime=NAME] "
			+ "[--backend=Ascend910B|Ascend950] [--platform=NAME] [--device-ids=0,1,...] [--grouped-dispatch=on|off] -o OUT INPUT...";

	private Main() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.out, System.err));
	}

	public static int run(String[] args, PrintStream out, PrintStream err) {
		CompileOptions options = CompileOptions.DEFAULT;
		Path outDir = null;
		List<Path> inputs = new ArrayList<>();
		try {
			for (int i = 0; i < args.length; i++) {
				String a = args[i];
				if (a.equals("-o") || a.equals("--out")) {
					outDir = Path.of(args[++i]);
				} else if (a.startsWith("--header=")) {
					options = options.withHeader(RuntimeHeader.parse(value(a)));
				} else if (a.startsWith("--runtime=")) {
					options = options.withRuntime(Runtime.fromName(value(a)));
				} else if (a.startsWith("--backend=")) {
					options = options.withBackend(Backend.parse(value(a)));
				} else if (a.startsWith("--platform=")) {
					options = options.withPlatform(value(a));
				} else if (a.startsWith("--device-ids=")) {
					List<Integer> ids = new ArrayList<>();
					for (String s : value(a).split(",")) {
						ids.add(Integer.parseInt(s.strip()));
					}
					options = options.withDeviceIds(ids);
				} else if (a.startsWith("--grouped-dispatch=")) {
					String v = value(a);
					if (!v.equals("on") && !v.equals("off")) {
						throw new IllegalArgumentException("--grouped-dispatch takes on or off, not " + v);
					}
					options = options.withGroupedDispatch(v.equals("on"));
				} else if (a.equals("-h") || a.equals("--help")) {
					out.println(USAGE);
					return 0;
				} else if (a.startsWith("-")) {
					throw new IllegalArgumentException("unknown option " + a);
				} else {
					inputs.add(Path.of(a));
				}
			}
		} catch (RuntimeException e) {
			err.println(e.getMessage());
			err.println(USAGE);
			return 2;
		}
		if (outDir == null || inputs.isEmpty()) {
			err.println(USAGE);
			return 2;
		}
		boolean ok = true;
		for (Path input : inputs) {
			CompileResult r = Compiler.compile(input, outDir, options);
			for (Problem p : r.problems()) {
				err.println(p);
			}
			for (Path w : r.written()) {
				out.println("wrote " + w);
			}
			ok &= r.ok();
		}
		return ok ? 0 : 1;
	}

	private static String value(String arg) {
		return arg.substring(arg.indexOf('=') + 1);
	}
}
