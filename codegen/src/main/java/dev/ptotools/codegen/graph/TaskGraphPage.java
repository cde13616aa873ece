package dev.ptotools.codegen.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.graph.TaskGraph.Access;
import dev.ptotools.codegen.graph.TaskGraph.Edge;
import dev.ptotools.codegen.graph.TaskGraph.Kind;
import dev.ptotools.codegen.graph.TaskGraph.Loop;
import dev.ptotools.codegen.graph.TaskGraph.Task;
import dev.ptotools.language.source.LineMap;

/**
 * One program's task graphs as a self-contained HTML page: per orchestration function an inline SVG
 * (tasks top to bottom in submission order, inside the boxes of their loops, dependencies as arcs on
 * the right) and the same facts as a table. No script or style is fetched: the page is read without
 * network, and without JavaScript (the one inline script only reports clicks to an editor that shows
 * the page). Rank loops carry the analyzer's verdict: a grouped loop is one group node publishing to
 * every rank; a loop that is not is drawn as per-rank submissions with the first condition it fails.
 *
 * <p>DOM contract (tests and editors rely on it): each task is a {@code g.task} with {@code data-task},
 * {@code data-name}, {@code data-kind}, {@code data-line}, {@code data-column}; a grouped dispatch also
 * has class {@code group}; each dependency is a {@code path.edge} with {@code data-from}, {@code data-to},
 * {@code data-reason}, {@code data-tensor}; each loop box a {@code g.loop} (rank loops {@code rank-loop}
 * plus {@code grouped} or {@code staggered}, with {@code data-rule} for the condition that failed).
 */
public final class TaskGraphPage {

	/** What a page shows: a program, where it is defined, its graphs and the analyzer's rank loops. */
	public record Input(String program, String source, String sourceText, List<TaskGraph> graphs, List<RankLoop> rankLoops) {

		public Input {
			graphs = List.copyOf(graphs);
			rankLoops = List.copyOf(rankLoops);
		}
	}

	private static final int ROW = 56;
	private static final int NODE_HEIGHT = 40;
	private static final int INDENT = 18;
	private static final int NODE_WIDTH = 330;
	private static final int LOOP_HEADER = 22;
	private static final Pattern SSA_SUFFIX = Pattern.compile("__(ssa|tmp|idx|rv|iter)_v\\d+");

	private TaskGraphPage() {
	}

	/** The page of one program. */
	public static String html(Input in) {
		LineMap lines = LineMap.of(in.sourceText() == null ? "" : in.sourceText());
		StringBuilder b = new StringBuilder();
		head(b, "Task graph: " + in.program());
		b.append("<header><h1>").append(esc(in.program())).append("</h1><p class=\"source\">")
				.append(esc(in.source())).append("</p></header>\n");
		if (in.graphs().isEmpty()) {
			b.append("<p class=\"empty\">This program has no orchestration function.</p>\n");
		}
		for (TaskGraph g : in.graphs()) {
			section(b, g, in, lines);
		}
		legend(b);
		b.append(SCRIPT);
		b.append("</body>\n</html>\n");
		return b.toString();
	}

	/** The index of a folder of pages: one row per program, with its number of tasks and dependencies. */
	public static String index(List<Input> programs, Map<Input, String> pageNames) {
		StringBuilder b = new StringBuilder();
		head(b, "Task graphs");
		b.append("<header><h1>Task graphs</h1><p>").append(programs.size()).append(programs.size() == 1 ? " program" : " programs")
				.append("</p></header>\n<table class=\"index\"><thead><tr><th>Program</th><th>Source</th>"
						+ "<th>Orchestrations</th><th>Tasks</th><th>Dependencies</th></tr></thead><tbody>\n");
		for (Input p : programs) {
			int tasks = p.graphs().stream().mapToInt(g -> g.tasks().size()).sum();
			int edges = p.graphs().stream().mapToInt(g -> g.edges().size()).sum();
			b.append("<tr><td><a href=\"").append(esc(pageNames.get(p))).append("\">").append(esc(p.program()))
					.append("</a></td><td>").append(esc(p.source())).append("</td><td>").append(p.graphs().size())
					.append("</td><td>").append(tasks).append("</td><td>").append(edges).append("</td></tr>\n");
		}
		b.append("</tbody></table>\n</body>\n</html>\n");
		return b.toString();
	}

	private static void head(StringBuilder b, String title) {
		b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
				.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
						+ "script-src 'unsafe-inline'\">\n")
				.append("<title>").append(esc(title)).append("</title>\n<style>").append(STYLE).append("</style>\n</head>\n<body>\n");
	}

	private static void section(StringBuilder b, TaskGraph g, Input in, LineMap lines) {
		Map<Span, RankLoop> rankLoops = new HashMap<>();
		for (RankLoop r : in.rankLoops()) {
			if (r.function().name().equals(g.function())) {
				rankLoops.put(r.loop().span(), r);
			}
		}
		int[] depth = new int[g.loops().size()];
		for (Loop l : g.loops()) {
			depth[l.index()] = l.parent() < 0 ? 1 : depth[l.parent()] + 1;
		}
		// A loop's rows: from its first task to its last, nested loops included.
		int[] first = new int[g.loops().size()];
		int[] last = new int[g.loops().size()];
		java.util.Arrays.fill(first, -1);
		for (Task t : g.tasks()) {
			for (int l = t.loop(); l >= 0; l = g.loops().get(l).parent()) {
				if (first[l] < 0) {
					first[l] = t.index();
				}
				last[l] = t.index();
			}
		}
		// Rows leave room for the headers of the loops that open at a task.
		int[] top = new int[g.tasks().size()];
		int y = 16;
		for (Task t : g.tasks()) {
			for (int l = t.loop(); l >= 0; l = g.loops().get(l).parent()) {
				if (first[l] == t.index()) {
					y += LOOP_HEADER;
				}
			}
			top[t.index()] = y;
			y += ROW;
		}
		int maxDepth = 0;
		for (int d : depth) {
			maxDepth = Math.max(maxDepth, d);
		}
		int right = 20 + maxDepth * INDENT + NODE_WIDTH + 2 * maxDepth;
		int maxSpan = 0;
		for (Edge e : g.edges()) {
			maxSpan = Math.max(maxSpan, e.to() - e.from());
		}
		int width = right + 60 + Math.min(maxSpan, 30) * 14 + 40;
		for (Loop l : g.loops()) {
			// room for the loop's label (about 7 px a character at 12 px)
			width = Math.max(width, 16 + depth[l.index()] * INDENT + 7 * Math.min(labelLength(g, l, in, lines, rankLoops), 150));
		}
		int height = y + 10;

		b.append("<section class=\"orchestration\" data-function=\"").append(esc(g.function())).append("\" data-file=\"")
				.append(esc(g.file())).append("\" data-level=\"").append(g.host() ? "host" : "chip").append("\">\n");
		b.append("<h2>").append(g.host() ? "HOST orchestrator " : "Chip orchestration ").append(esc(g.function()))
				.append("</h2>\n<p class=\"file\">").append(esc(g.file())).append(" · ").append(g.tasks().size())
				.append(g.tasks().size() == 1 ? " task" : " tasks").append(" · ").append(g.edges().size())
				.append(g.edges().size() == 1 ? " dependency" : " dependencies").append("</p>\n");
		if (g.tasks().isEmpty()) {
			b.append("<p class=\"empty\">It submits no task.</p>\n</section>\n");
			return;
		}
		b.append("<svg class=\"graph\" width=\"").append(width).append("\" height=\"")
				.append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" role=\"img\">\n");
		b.append("<defs><marker id=\"arrow-").append(esc(g.function())).append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
				+ "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n");
		// loops, outermost first so inner boxes paint over them
		for (Loop l : g.loops()) {
			if (first[l.index()] < 0) {
				continue;
			}
			int d = depth[l.index()];
			int x = 8 + (d - 1) * INDENT;
			int headerRows = 0;
			for (int p = l.index(); p >= 0; p = g.loops().get(p).parent()) {
				if (first[p] == first[l.index()]) {
					headerRows++;
				}
			}
			int y0 = top[first[l.index()]] - headerRows * LOOP_HEADER + 2;
			int y1 = top[last[l.index()]] + NODE_HEIGHT + 8;
			int w = right - x + (maxDepth - d + 1) * 2;
			RankLoop rank = rankLoops.get(l.span());
			String cls = "loop";
			String label = sourceHeader(in.sourceText(), lines, l);
			String extra = "";
			if (rank != null) {
				boolean grouped = g.tasks().stream().anyMatch(t -> t.kind() == Kind.CHIP_GROUP && within(g, t, l.index()));
				cls += " rank-loop " + (grouped ? "grouped" : "staggered");
				if (grouped) {
					label += " — grouped: one publication to all ranks";
				} else if (rank.grouped()) {
					label += " — per rank (grouped dispatch is off)";
				} else {
					label += " — per rank, staggered: " + rank.failed().rule() + " " + rank.reason();
					extra = " data-rule=\"" + rank.failed().rule() + "\"";
				}
			}
			b.append("<g class=\"").append(cls).append("\" data-loop=\"").append(l.index()).append("\"").append(extra)
					.append(" data-line=\"").append(lines.line(l.span().start())).append("\">");
			b.append("<title>").append(esc(label)).append(" (line ").append(lines.line(l.span().start())).append(")</title>");
			b.append("<rect x=\"").append(x).append("\" y=\"").append(y0).append("\" width=\"").append(w).append("\" height=\"")
					.append(y1 - y0).append("\" rx=\"6\"/>");
			b.append("<text x=\"").append(x + 8).append("\" y=\"").append(y0 + 15).append("\">").append(esc(clip(label, 150)))
					.append("</text></g>\n");
		}
		for (Task t : g.tasks()) {
			int d = t.loop() < 0 ? 0 : depth[t.loop()];
			int x = 20 + d * INDENT;
			int ty = top[t.index()];
			int line = lines.line(t.span().start());
			int column = lines.column(t.span().start());
			String kind = t.kind().name();
			b.append("<g class=\"task kind-").append(kind.toLowerCase(java.util.Locale.ROOT))
					.append(t.kind() == Kind.CHIP_GROUP ? " group" : "").append("\" id=\"").append(esc(g.function())).append("-t")
					.append(t.index()).append("\" data-task=\"").append(t.index()).append("\" data-name=\"").append(esc(t.name()))
					.append("\" data-kind=\"").append(kind).append("\" data-line=\"").append(line).append("\" data-column=\"")
					.append(column).append("\" tabindex=\"0\">");
			b.append("<title>").append(esc(tooltip(t, line))).append("</title>");
			if (t.kind() == Kind.CHIP && !t.rank().isEmpty() && t.loop() >= 0) {
				// per-rank submissions: a stack of cards, one per rank
				b.append("<rect class=\"stack\" x=\"").append(x + 6).append("\" y=\"").append(ty + 5).append("\" width=\"")
						.append(NODE_WIDTH).append("\" height=\"").append(NODE_HEIGHT).append("\" rx=\"5\"/>");
			}
			b.append("<rect x=\"").append(x).append("\" y=\"").append(ty).append("\" width=\"").append(NODE_WIDTH)
					.append("\" height=\"").append(NODE_HEIGHT).append("\" rx=\"5\"/>");
			b.append("<text x=\"").append(x + 10).append("\" y=\"").append(ty + 17).append("\" class=\"name\">#")
					.append(t.index()).append(' ').append(esc(clip(t.name(), 34))).append("</text>");
			b.append("<text x=\"").append(x + 10).append("\" y=\"").append(ty + 33).append("\" class=\"meta\">")
					.append(esc(meta(t, line))).append("</text></g>\n");
		}
		for (Edge e : g.edges()) {
			int x1 = 20 + NODE_WIDTH + (g.tasks().get(e.from()).loop() < 0 ? 0 : depth[g.tasks().get(e.from()).loop()] * INDENT);
			int x2 = 20 + NODE_WIDTH + (g.tasks().get(e.to()).loop() < 0 ? 0 : depth[g.tasks().get(e.to()).loop()] * INDENT);
			int y1 = top[e.from()] + NODE_HEIGHT / 2;
			int y2 = top[e.to()] + NODE_HEIGHT / 2;
			int bulge = right + 30 + Math.min(e.to() - e.from(), 30) * 14;
			String reason = e.reason().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
			b.append("<path class=\"edge ").append(reason).append("\" data-from=\"").append(e.from()).append("\" data-to=\"")
					.append(e.to()).append("\" data-reason=\"").append(e.reason().name()).append("\" data-tensor=\"")
					.append(esc(display(e.tensor()))).append("\" d=\"M").append(x1).append(',').append(y1).append(" C")
					.append(bulge).append(',').append(y1).append(' ').append(bulge).append(',').append(y2).append(' ')
					.append(x2 + 2).append(',').append(y2).append("\" marker-end=\"url(#arrow-").append(esc(g.function()))
					.append(")\"><title>#").append(e.to()).append(" waits for #").append(e.from()).append(": ")
					.append(esc(because(e))).append("</title></path>\n");
		}
		b.append("</svg>\n");
		table(b, g, lines);
		b.append("</section>\n");
	}

	private static int labelLength(TaskGraph g, Loop l, Input in, LineMap lines, Map<Span, RankLoop> rankLoops) {
		RankLoop rank = rankLoops.get(l.span());
		int verdict = rank == null ? 0 : rank.grouped() ? 45 : 30 + rank.reason().length();
		return sourceHeader(in.sourceText(), lines, l).length() + verdict;
	}

	/** The loop's header as the source reads it ("for r in pl.range(pld.world_size())"), else the code's. */
	private static String sourceHeader(String text, LineMap lines, Loop l) {
		if (text == null || l.span() == Span.NONE || l.span().start() >= text.length()) {
			return l.header();
		}
		int line = lines.line(l.span().start());
		String header = text.substring(l.span().start(), lines.lineEnd(text, line)).strip();
		if (!header.startsWith("for ")) {
			return l.header();
		}
		int colon = header.lastIndexOf(':');
		return colon > 0 ? header.substring(0, colon).strip() : header;
	}

	private static boolean within(TaskGraph g, Task t, int loop) {
		for (int l = t.loop(); l >= 0; l = g.loops().get(l).parent()) {
			if (l == loop) {
				return true;
			}
		}
		return false;
	}

	private static void table(StringBuilder b, TaskGraph g, LineMap lines) {
		b.append("<table class=\"tasks\"><thead><tr><th>#</th><th>Task</th><th>Runs on</th><th>Line</th><th>Rank</th>"
				+ "<th>Reads</th><th>Writes</th><th>Waits for</th></tr></thead><tbody>\n");
		Map<Integer, List<String>> waits = new LinkedHashMap<>();
		for (Edge e : g.edges()) {
			waits.computeIfAbsent(e.to(), k -> new ArrayList<>()).add("#" + e.from() + " (" + because(e) + ")");
		}
		for (Task t : g.tasks()) {
			List<String> reads = new ArrayList<>();
			List<String> writes = new ArrayList<>();
			for (Access a : t.accesses()) {
				if (a.mode().reads()) {
					reads.add(display(a.tensor()));
				}
				if (a.mode().writes()) {
					writes.add(display(a.tensor()));
				}
			}
			b.append("<tr data-task=\"").append(t.index()).append("\"><td>").append(t.index()).append("</td><td>")
					.append(esc(t.name())).append("</td><td>").append(kindText(t.kind())).append("</td><td>")
					.append(lines.line(t.span().start())).append("</td><td>").append(esc(rankText(t))).append("</td><td>")
					.append(esc(String.join(", ", reads))).append("</td><td>").append(esc(String.join(", ", writes)))
					.append("</td><td>").append(esc(String.join("; ", waits.getOrDefault(t.index(), List.of()))))
					.append("</td></tr>\n");
		}
		b.append("</tbody></table>\n");
	}

	private static void legend(StringBuilder b) {
		b.append("<footer class=\"legend\"><span class=\"k kind-aiv\">AIV</span><span class=\"k kind-aic\">AIC</span>"
				+ "<span class=\"k kind-mixed\">AIC + AIV group</span><span class=\"k kind-chip\">chip orchestration, per rank</span>"
				+ "<span class=\"k kind-chip_group\">one group publication to all ranks</span>"
				+ "<span class=\"k kind-sub_worker\">sub-worker</span><span class=\"k kind-barrier\">barrier</span>"
				+ "<span>Arcs: the later task waits for the earlier one (solid: it reads what the earlier wrote; dashed: it "
				+ "overwrites; dotted: deps=[...]).</span></footer>\n");
	}

	private static String meta(Task t, int line) {
		StringBuilder m = new StringBuilder(kindText(t.kind()));
		if (!t.rank().isEmpty()) {
			m.append(" · ").append(rankText(t));
		}
		return m.append(" · line ").append(line).toString();
	}

	private static String rankText(Task t) {
		return t.rank().isEmpty() ? "" : t.kind() == Kind.CHIP_GROUP ? "ranks: all" : "rank " + display(t.rank());
	}

	private static String tooltip(Task t, int line) {
		StringBuilder s = new StringBuilder("#" + t.index() + " " + t.name() + " (" + kindText(t.kind()) + "), line " + line);
		for (Access a : t.accesses()) {
			s.append("\n").append(a.mode()).append(' ').append(display(a.tensor()));
		}
		return s.toString();
	}

	static String kindText(Kind k) {
		return switch (k) {
		case AIV -> "AIV";
		case AIC -> "AIC";
		case MIXED -> "AIC + AIV";
		case BARRIER -> "barrier";
		case CHIP -> "chip";
		case CHIP_GROUP -> "chip, grouped";
		case SUB_WORKER -> "sub-worker";
		};
	}

	private static String because(Edge e) {
		String t = display(e.tensor());
		return switch (e.reason()) {
		case READ_AFTER_WRITE -> "reads " + t;
		case WRITE_AFTER_WRITE -> "overwrites " + t;
		case WRITE_AFTER_READ -> "overwrites " + t + ", which it read";
		case EXPLICIT -> "deps=[...]";
		};
	}

	/**
	 * A tensor or rank as the source names it: no SSA suffixes, no ext_ prefix of parameters; a comm
	 * domain's ordering token ({@code __comm_d0_ord}, which every dispatch in the domain updates) by what
	 * it is.
	 */
	static String display(String name) {
		String s = SSA_SUFFIX.matcher(name).replaceAll("");
		if (s.startsWith("__") && s.endsWith("_ord")) {
			return "the order of " + s.substring(2, s.length() - 4);
		}
		return s.startsWith("ext_") ? s.substring(4) : s;
	}

	private static String clip(String s, int max) {
		return s.length() <= max ? s : s.substring(0, max - 1) + "…";
	}

	static String esc(String s) {
		StringBuilder b = new StringBuilder(s.length());
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			switch (c) {
			case '<' -> b.append("&lt;");
			case '>' -> b.append("&gt;");
			case '&' -> b.append("&amp;");
			case '"' -> b.append("&quot;");
			case '\'' -> b.append("&#39;");
			default -> b.append(c);
			}
		}
		return b.toString();
	}

	private static final String STYLE = """
			body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#1d2430;background:#fff}
			h1{font-size:20px;margin:0}h2{font-size:16px;margin:24px 0 2px}.source,.file{color:#5a6472;margin:2px 0 8px}
			svg.graph{display:block;max-width:100%;height:auto}
			.task rect{fill:#eef4ff;stroke:#3b6fd6;stroke-width:1.5}.task text{font-size:13px}.task .meta{fill:#4a5563;font-size:12px}
			.task .name{font-weight:600}.task:focus rect,.task:hover rect{stroke-width:3}
			.kind-aic rect{fill:#fff1e6;stroke:#d2691e}.kind-mixed rect{fill:#f3ecff;stroke:#7a4fd6}
			.kind-chip rect{fill:#eaf7ee;stroke:#2e8b57}.kind-chip rect.stack{fill:#d6efdd}
			.kind-chip_group rect{fill:#c9f0d6;stroke:#1f7a45;stroke-width:2.5}
			.kind-sub_worker rect{fill:#fffbe6;stroke:#b8960c}.kind-barrier rect{fill:#f2f2f2;stroke:#777}
			.loop rect{fill:none;stroke:#a9b1bd;stroke-dasharray:4 3}.loop text{fill:#5a6472;font-size:12px}
			.rank-loop.grouped rect{stroke:#1f7a45;stroke-dasharray:none;fill:#f4fbf6}
			.rank-loop.staggered rect{stroke:#c0392b;fill:#fdf5f4}.rank-loop.staggered text{fill:#a93226}
			.edge{fill:none;stroke:#3b4655;stroke-width:1.3}.edge.write-after-write,.edge.write-after-read{stroke-dasharray:6 3}
			.edge.explicit{stroke-dasharray:2 3;stroke:#7a4fd6}marker path{fill:#3b4655}
			table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}th,td{border:1px solid #d5dae1;padding:3px 8px;text-align:left}
			th{background:#f4f6f9}.legend{margin-top:24px;color:#4a5563;font-size:12px}.legend span{margin-right:12px}
			.legend .k{display:inline-block;padding:1px 6px;border:1px solid #3b6fd6;border-radius:4px;background:#eef4ff}
			.legend .kind-aic{background:#fff1e6;border-color:#d2691e}.legend .kind-mixed{background:#f3ecff;border-color:#7a4fd6}
			.legend .kind-chip{background:#eaf7ee;border-color:#2e8b57}.legend .kind-chip_group{background:#c9f0d6;border-color:#1f7a45}
			.legend .kind-sub_worker{background:#fffbe6;border-color:#b8960c}.legend .kind-barrier{background:#f2f2f2;border-color:#777}
			""";

	/** Clicks and Enter on a task tell an editor showing the page (a VS Code webview) to reveal its line. */
	private static final String SCRIPT = """
			<script>
			(function () {
			  var api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;
			  function reveal(el) {
			    var t = el.closest('[data-line]');
			    if (!t || !api) { return; }
			    api.postMessage({ command: 'reveal', line: +t.dataset.line, column: +(t.dataset.column || 1) });
			  }
			  document.addEventListener('click', function (e) { reveal(e.target); });
			  document.addEventListener('keydown', function (e) { if (e.key === 'Enter') { reveal(e.target); } });
			})();
			</script>
			""";
}
