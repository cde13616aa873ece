package dev.ptotools.analyzer.report;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;

/**
 * {@code pto check --format json}: an array with one object per finding, files in the given order and
 * findings in the analyzer's order. The schema is documented in docs/cli.md and kept stable: fields
 * may be added, none is renamed or removed.
 *
 * <pre>
 * {"file": "src/x.py", "line": 12, "column": 9, "endLine": 12, "endColumn": 31,
 *  "rule": "PTO105", "name": "dispatch-not-pinned", "severity": "warning", "message": "...",
 *  "fingerprint": "...", "related": [{"file": "src/x.py", "line": .., "column": .., "endLine": .., "endColumn": .., "message": ".."}],
 *  "fixes": [{"title": "...", "preferred": true,
 *             "edits": [{"line": .., "column": .., "endLine": .., "endColumn": .., "replacement": "..."}]}]}
 * </pre>
 */
public final class JsonReport {

	private JsonReport() {
	}

	public static String write(List<FileReport> files, List<RuleInfo> rules) {
		return Json.write(array(files, rules));
	}

	public static JsonArray array(List<FileReport> files, List<RuleInfo> rules) {
		Map<String, RuleInfo> byId = rules.stream().collect(Collectors.toMap(RuleInfo::id, Function.identity(), (a, b) -> a));
		JsonArray out = new JsonArray();
		for (FileReport f : files) {
			List<String> prints = Fingerprints.of(f);
			for (int i = 0; i < f.diagnostics().size(); i++) {
				out.add(finding(f, f.diagnostics().get(i), byId.get(f.diagnostics().get(i).rule()), prints.get(i)));
			}
		}
		return out;
	}

	static JsonObject finding(FileReport f, Diagnostic d, RuleInfo rule, String fingerprint) {
		JsonObject o = new JsonObject();
		o.addProperty("file", f.path());
		Json.range(o, Range.of(d.span(), f.lines()));
		o.addProperty("rule", d.rule());
		o.addProperty("name", rule == null ? null : rule.name());
		o.addProperty("severity", d.severity().lower());
		o.addProperty("message", d.message());
		o.addProperty("fingerprint", fingerprint);
		JsonArray related = new JsonArray();
		for (Diagnostic.Related r : d.related()) {
			JsonObject ro = new JsonObject();
			ro.addProperty("file", f.path());
			Json.range(ro, Range.of(r.span(), f.lines()));
			ro.addProperty("message", r.message());
			related.add(ro);
		}
		o.add("related", related);
		JsonArray fixes = new JsonArray();
		for (Fix fix : d.fixes()) {
			JsonObject fo = new JsonObject();
			fo.addProperty("title", fix.title());
			fo.addProperty("preferred", fix.preferred());
			JsonArray edits = new JsonArray();
			for (Fix.Edit e : fix.edits()) {
				JsonObject eo = new JsonObject();
				Json.range(eo, Range.of(e.span(), f.lines()));
				eo.addProperty("replacement", e.replacement());
				edits.add(eo);
			}
			fo.add("edits", edits);
			fixes.add(fo);
		}
		o.add("fixes", fixes);
		return o;
	}
}
