package dev.ptotools.codegen.emit.orchestration;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Development harness: for every JSON export of pypto's post-pipeline IR under a directory, runs this
 * emitter on the same IR and compares code, kernel ids, core types and signatures with what pypto
 * generated. Prints one line per file (OK / DIFF / ERROR) and, with -v, the first differing lines.
 */
public final class PyptoIrHarnessMain {

	private PyptoIrHarnessMain() {
	}

	public static void main(String[] args) throws Exception {
		boolean verbose = args.length > 1 && args[1].equals("-v");
		List<Path> files;
		try (Stream<Path> s = Files.walk(Path.of(args[0]))) {
			files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
		}
		int ok = 0;
		for (Path f : files) {
			String rel = Path.of(args[0]).relativize(f).toString();
			try {
				PyptoIrJson.Loaded l = PyptoIrJson.load(Files.readString(f));
				OrchestrationResult r = OrchestrationCodegen.generate(l.program(), l.orch(), OrchestrationGoldenTest.PTO);
				String meta = meta(r, l.raw());
				if (r.code().equals(l.code()) && meta.isEmpty()) {
					ok++;
					System.out.println("OK    " + rel);
				} else {
					System.out.println("DIFF  " + rel + (meta.isEmpty() ? "" : " meta: " + meta));
					if (verbose) {
						printDiff(l.code(), r.code());
					}
				}
			} catch (RuntimeException e) {
				System.out.println("ERROR " + rel + ": " + e);
				if (verbose) {
					e.printStackTrace(System.out);
				}
			}
		}
		System.out.println(ok + "/" + files.size() + " identical");
	}

	@SuppressWarnings("unchecked")
	private static String meta(OrchestrationResult r, Map<String, Object> raw) {
		StringBuilder b = new StringBuilder();
		Map<String, Object> ids = new TreeMap<>((Map<String, Object>) raw.get("ids"));
		Map<String, Object> ours = new TreeMap<>();
		r.funcNameToId().forEach((k, v) -> ours.put(k, (long) v));
		if (!ids.equals(ours)) {
			b.append("ids ").append(ours).append(" vs ").append(ids).append(' ');
		}
		Map<String, Object> sigs = new TreeMap<>((Map<String, Object>) raw.get("sigs"));
		if (!sigs.equals(new TreeMap<>(r.funcNameToSignature()))) {
			b.append("sigs ").append(r.funcNameToSignature()).append(" vs ").append(sigs).append(' ');
		}
		Map<String, Object> cts = new TreeMap<>((Map<String, Object>) raw.get("core_types"));
		Map<String, Object> ourCts = new TreeMap<>();
		r.funcNameToCoreType().forEach((k, v) -> ourCts.put(k, v.name()));
		if (!cts.equals(ourCts)) {
			b.append("core_types ").append(ourCts).append(" vs ").append(cts).append(' ');
		}
		if (!raw.get("orch_sig").equals(r.orchestrationSignature())) {
			b.append("orch_sig ").append(r.orchestrationSignature()).append(" vs ").append(raw.get("orch_sig"));
		}
		return b.toString();
	}

	private static void printDiff(String expected, String actual) {
		String[] e = expected.split("\n", -1);
		String[] a = actual.split("\n", -1);
		int shown = 0;
		for (int i = 0; i < Math.max(e.length, a.length) && shown < 12; i++) {
			String x = i < e.length ? e[i] : "<eof>";
			String y = i < a.length ? a[i] : "<eof>";
			if (!x.equals(y)) {
				System.out.println("   " + (i + 1) + " pypto: " + x);
				System.out.println("   " + (i + 1) + " ours : " + y);
				shown++;
			}
		}
	}
}
