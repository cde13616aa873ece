package dev.ptotools.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.services.LanguageClient;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Analyzer;
import dev.ptotools.analyzer.support.GeneratedPrograms;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.lsp.Lsp;

/**
 * Where the server's edit → diagnostics time goes, in process and without the protocol: parse,
 * analysis, conversion to LSP diagnostics, and JSON serialization of the publishDiagnostics
 * message, per edit of the same generated module {@link LspLatency} edits, plus the garbage
 * collection time the run caused. A harness, not a test; run it with the server's JVM options:
 * {@code java -Xmx512m -XX:+UseSerialGC -cp ... dev.ptotools.bench.AnalysisBreakdown [lines] [edits]}.
 */
public final class AnalysisBreakdown {

	private AnalysisBreakdown() {
	}

	public static void main(String[] args) throws Exception {
		int lines = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
		int edits = args.length > 1 ? Integer.parseInt(args[1]) : 200;
		String text = GeneratedPrograms.multiRank(lines);
		List<String> editable = LspLatency.editLines(text);
		MessageJsonHandler json = new MessageJsonHandler(ServiceEndpoints.getSupportedMethods(LanguageClient.class));
		ServiceEndpoints.getSupportedMethods(LanguageServer.class);
		String uri = "file:///tmp/generated_multi_rank.py";
		double[] parse = new double[edits];
		double[] analyze = new double[edits];
		double[] compile = new double[edits];
		dev.ptotools.analyzer.pipeline.Analyzer withCompile = dev.ptotools.codegen.Compiler
				.analyzer(dev.ptotools.codegen.CompileOptions.DEFAULT);
		double[] convert = new double[edits];
		double[] serialize = new double[edits];
		long gcBefore = gcMillis();
		long allocatedBefore = allocatedBytes();
		long chars = 0;
		String current = text;
		Analysis last = null;
		// as the server parses an edited document
		dev.ptotools.language.IncrementalParser parser = new dev.ptotools.language.IncrementalParser(PythonFrontEnd.get());
		parser.parse(current);
		for (int k = 1; k <= edits; k++) {
			current = LspLatency.edit(current, editable, k);
			long t0 = System.nanoTime();
			ParsedFile parsed = parser.parse(current);
			long t1 = System.nanoTime();
			Analyzer.standard().analyze(parsed, AnalyzerConfig.DEFAULT);
			long t15 = System.nanoTime();
			// What the server runs: the same pipeline with the compile (timed as the difference).
			Analysis a = withCompile.analyze(parsed, AnalyzerConfig.DEFAULT);
			long t2 = System.nanoTime();
			compile[k - 1] = Math.max(0, ((t2 - t15) - (t15 - t1)) / 1e6);
			t2 = System.nanoTime();
			List<org.eclipse.lsp4j.Diagnostic> out = new ArrayList<>();
			for (var d : a.diagnostics()) {
				out.add(Lsp.diagnostic(d, a.file().lines(), uri, true));
			}
			long t3 = System.nanoTime();
			NotificationMessage m = new NotificationMessage();
			m.setJsonrpc("2.0");
			m.setMethod("textDocument/publishDiagnostics");
			m.setParams(new PublishDiagnosticsParams(uri, out, k + 1));
			chars += json.serialize(m).length();
			long t4 = System.nanoTime();
			last = a;
			parse[k - 1] = (t1 - t0) / 1e6;
			analyze[k - 1] = (t15 - t1) / 1e6;
			convert[k - 1] = (t3 - t2) / 1e6;
			serialize[k - 1] = (t4 - t3) / 1e6;
		}
		long gc = gcMillis() - gcBefore;
		long allocated = allocatedBytes() - allocatedBefore;
		System.gc();
		Runtime rt = Runtime.getRuntime();
		long live = rt.totalMemory() - rt.freeMemory();
		System.out.printf(Locale.ROOT, "%d lines, %d edits, %,d JSON characters per publish; heap max %d MB; %s%n", lines,
				edits, chars / edits, Runtime.getRuntime().maxMemory() >> 20,
				ManagementFactory.getRuntimeMXBean().getInputArguments());
		System.out.printf(Locale.ROOT, "%-28s %8s %8s %8s%n", "stage (ms per edit)", "p50", "p95", "mean");
		row("parse (IncrementalParser)", parse);
		row("analyze (passes + rules)", analyze);
		row("compile (CompilePass)", compile);
		row("to LSP diagnostics", convert);
		row("publish JSON", serialize);
		System.out.printf(Locale.ROOT, "garbage collection: %d ms in all, %.1f ms per edit; allocated %.0f MB per edit;"
				+ " heap in use after a full GC with one analysis held: %d MB (%d diagnostics)%n", gc, gc / (double) edits,
				allocated / (double) edits / (1 << 20), live >> 20, last == null ? 0 : last.diagnostics().size());
	}

	private static void row(String name, double[] v) {
		System.out.printf(Locale.ROOT, "%-28s %8.1f %8.1f %8.1f%n", name, Samples.percentile(v, 50),
				Samples.percentile(v, 95), Arrays.stream(v).average().orElse(0));
	}

	/** Bytes allocated so far by every live thread (the front end and analyzer run on pool threads). */
	private static long allocatedBytes() {
		var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long[] ids = mx.getAllThreadIds();
		long sum = 0;
		for (long b : mx.getThreadAllocatedBytes(ids)) {
			sum += Math.max(0, b);
		}
		return sum;
	}

	private static long gcMillis() {
		long t = 0;
		for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
			t += Math.max(0, b.getCollectionTime());
		}
		return t;
	}
}
