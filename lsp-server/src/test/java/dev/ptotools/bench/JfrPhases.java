package dev.ptotools.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the time of a flight recording of our server goes, by stage of the edit → diagnostics path:
 * each {@code jdk.ExecutionSample} is put in the stage its stack is in (parse and its parts, each
 * analyzer pass and rule, conversion to LSP, JSON), plus the garbage-collection pauses. A harness
 * helper, not a test: {@code java -cp ... dev.ptotools.bench.JfrPhases FILE.jfr} on a recording from
 * {@code bench/lsp-latency.sh --jfr DIR}.
 */
public final class JfrPhases {

	private JfrPhases() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, Integer> stages = new HashMap<>();
		int samples = 0;
		Duration gc = Duration.ZERO;
		int gcs = 0;
		for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
			String type = e.getEventType().getName();
			if (type.equals("jdk.GarbageCollection")) {
				gc = gc.plus(e.getDuration());
				gcs++;
			} else if (type.equals("jdk.ExecutionSample") && e.getStackTrace() != null) {
				List<String> frames = new ArrayList<>();
				for (RecordedFrame f : e.getStackTrace().getFrames()) {
					frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
				}
				stages.merge(stage(frames), 1, Integer::sum);
				samples++;
			}
		}
		System.out.printf(Locale.ROOT, "%d execution samples; %d garbage collections, %d ms of pauses%n", samples, gcs,
				gc.toMillis());
		int total = samples;
		stages.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(30)
				.forEach(s -> System.out.printf(Locale.ROOT, "%5.1f%% %6d  %s%n", 100.0 * s.getValue() / total, s.getValue(),
						s.getKey()));
	}

	/** The stage of one stack (frames innermost first). */
	static String stage(List<String> frames) {
		if (any(frames, "PythonFrontEnd.parseHere")) {
			if (any(frames, "SpanIndex.of")) {
				return "parse: SpanIndex";
			}
			if (any(frames, "PythonSyntaxChecks")) {
				return "parse: syntax checks";
			}
			if (any(frames, "NodeModelBuilder") || any(frames, "GrammarElementsInterner")) {
				return "parse: Xtext node model";
			}
			if (any(frames, "DefaultEcoreElementFactory") || any(frames, "AbstractInternalAntlrParser.set")
					|| any(frames, "AbstractInternalAntlrParser.add") || any(frames, "createModelElement")) {
				return "parse: EMF AST";
			}
			if (any(frames, "PythonLayoutTokenSource") || any(frames, "Lexer")) {
				return "parse: lexer + layout";
			}
			if (any(frames, "AbstractInternalAntlrParser.parse")) {
				return "parse: ANTLR rules";
			}
			return "parse: other";
		}
		if (any(frames, "pipeline.Analyzer.run")) {
			for (int i = frames.size() - 1; i >= 0; i--) {
				String f = frames.get(i);
				if (f.contains(".analyzer.passes.") && f.endsWith(".run")) {
					return "analyze: " + simple(f);
				}
				if (f.contains(".analyzer.rules.") && !f.contains(".rules.Rules") && !f.contains("RuleContext")) {
					return "analyze: rule " + simple(f);
				}
			}
			return "analyze: other";
		}
		if (any(frames, "dev.ptotools.lsp.Lsp.diagnostic")) {
			return "to LSP diagnostics";
		}
		if (any(frames, "MessageJsonHandler") || any(frames, "com.google.gson")) {
			return "JSON (LSP4J/Gson)";
		}
		return "other: " + (frames.isEmpty() ? "?" : simple(frames.get(0)));
	}

	private static boolean any(List<String> frames, String part) {
		for (String f : frames) {
			if (f.contains(part)) {
				return true;
			}
		}
		return false;
	}

	private static String simple(String frame) {
		String[] parts = frame.split("\\.");
		return parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : frame;
	}
}
