package dev.ptotools.analyzer.report;

import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;

/**
 * {@code pto loops}: every rank loop with its grouped-dispatch verdict, as JSON (an array of
 * {@code {file, line, column, function, program, grouped, rule, reason, groupId}}; rule and reason
 * only when the loop is not grouped, groupId only when it is) or as an aligned table with a summary.
 */
public final class LoopsReport {

	/** One row: a loop, located at its {@code for}. */
	public record Row(String file, Range at, String program, String function, boolean grouped, String rule,
			String reason, String groupId) {

		public String qualifiedFunction() {
			// a jit entry is its own program (_jit_<function>): the function's name says it all
			return program == null || program.equals(function) || program.equals("_jit_" + function) ? function
					: program + "." + function;
		}
	}

	private LoopsReport() {
	}

	/**
	 * The program a loop's function is compiled in, named as pypto names it: the class of a
	 * {@code @pl.program}; for {@code @pl.jit.host} functions {@code _jit_<function>}, since each jit entry
	 * is compiled as its own program.
	 */
	static String programName(RankLoop l) {
		Program p = l.program();
		if (p == null) {
			return null;
		}
		return p.style() == Program.Style.JIT ? "_jit_" + l.function().name() : p.name();
	}

	public static List<Row> rows(List<FileReport> files) {
		List<Row> rows = new ArrayList<>();
		for (FileReport f : files) {
			for (RankLoop l : f.loops()) {
				Span at = l.loop().keywordSpan() != null && l.loop().keywordSpan() != Span.NONE ? l.loop().keywordSpan()
						: l.loop().span();
				rows.add(new Row(f.path(), Range.of(at, f.lines()), programName(l), l.function().name(),
						l.grouped(), l.grouped() ? null : l.failed().rule(), l.grouped() ? null : l.reason(), l.groupId()));
			}
		}
		return rows;
	}

	public static String json(List<FileReport> files) {
		JsonArray out = new JsonArray();
		for (Row r : rows(files)) {
			JsonObject o = new JsonObject();
			o.addProperty("file", r.file());
			o.addProperty("line", r.at().line());
			o.addProperty("column", r.at().column());
			o.addProperty("function", r.function());
			o.addProperty("program", r.program());
			o.addProperty("grouped", r.grouped());
			if (r.grouped()) {
				o.addProperty("groupId", r.groupId());
			} else {
				o.addProperty("rule", r.rule());
				o.addProperty("reason", r.reason());
			}
			out.add(o);
		}
		return Json.write(out);
	}

	public static String text(List<FileReport> files, int filesChecked) {
		List<Row> rows = rows(files);
		List<String[]> cells = new ArrayList<>();
		cells.add(new String[] { "LOCATION", "FUNCTION", "GROUPED", "RULE", "REASON" });
		for (Row r : rows) {
			cells.add(new String[] { r.file() + ":" + r.at().line() + ":" + r.at().column(), r.qualifiedFunction(),
					r.grouped() ? "yes" : "no", r.grouped() ? "-" : r.rule(),
					r.grouped() ? "all ranks start together" : r.reason() });
		}
		StringBuilder b = new StringBuilder();
		if (!rows.isEmpty()) {
			int[] width = new int[5];
			for (String[] c : cells) {
				for (int i = 0; i < c.length; i++) {
					width[i] = Math.max(width[i], c[i].length());
				}
			}
			for (String[] c : cells) {
				StringBuilder line = new StringBuilder();
				for (int i = 0; i < c.length; i++) {
					line.append(c[i]);
					if (i < c.length - 1) {
						line.append(" ".repeat(width[i] - c[i].length() + 2));
					}
				}
				b.append(line.toString().stripTrailing()).append('\n');
			}
		}
		long grouped = rows.stream().filter(Row::grouped).count();
		long filesWithLoops = rows.stream().map(Row::file).distinct().count();
		b.append(rows.size()).append(rows.size() == 1 ? " rank loop" : " rank loops").append(" in ").append(filesWithLoops)
				.append(" of ").append(filesChecked).append(filesChecked == 1 ? " file" : " files").append(": ")
				.append(grouped).append(" grouped, ").append(rows.size() - grouped).append(" not grouped.\n");
		return b.toString();
	}
}
