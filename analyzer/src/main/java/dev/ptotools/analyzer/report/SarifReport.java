package dev.ptotools.analyzer.report;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;

/**
 * {@code pto check --format sarif}: one SARIF 2.1.0 log with one run, as GitHub code scanning ingests
 * it. The driver lists every rule (results point at them by id and index); locations are URIs
 * relative to the repository root under {@code %SRCROOT%}, with 1-based regions in UTF-16 code units;
 * each result has a partial fingerprint that survives line shifts ({@link Fingerprints}) and the
 * analyzer's fixes as SARIF fixes.
 */
public final class SarifReport {

	public static final String SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
	public static final String SRCROOT = "%SRCROOT%";

	private SarifReport() {
	}

	public static String write(List<FileReport> files, List<RuleInfo> rules, ToolInfo tool, List<Notice> notices) {
		return Json.write(log(files, rules, tool, notices));
	}

	public static JsonObject log(List<FileReport> files, List<RuleInfo> rules, ToolInfo tool, List<Notice> notices) {
		JsonObject log = new JsonObject();
		log.addProperty("$schema", SCHEMA);
		log.addProperty("version", "2.1.0");
		JsonArray runs = new JsonArray();
		JsonObject run = new JsonObject();
		JsonObject driver = new JsonObject();
		driver.addProperty("name", tool.name());
		driver.addProperty("version", tool.version());
		if (tool.informationUri() != null) {
			driver.addProperty("informationUri", tool.informationUri());
		}
		JsonArray ruleArray = new JsonArray();
		Map<String, Integer> index = new HashMap<>();
		for (RuleInfo r : rules) {
			index.put(r.id(), ruleArray.size());
			ruleArray.add(rule(r, tool));
		}
		driver.add("rules", ruleArray);
		JsonObject toolObject = new JsonObject();
		toolObject.add("driver", driver);
		run.add("tool", toolObject);
		JsonArray invocations = new JsonArray();
		JsonObject invocation = new JsonObject();
		invocation.addProperty("executionSuccessful", notices.isEmpty());
		if (!notices.isEmpty()) {
			JsonArray ns = new JsonArray();
			for (Notice n : notices) {
				JsonObject no = new JsonObject();
				no.addProperty("level", "error");
				no.add("message", text(n.message()));
				if (n.path() != null) {
					JsonObject loc = new JsonObject();
					JsonObject phys = new JsonObject();
					phys.add("artifactLocation", artifact(n.path()));
					loc.add("physicalLocation", phys);
					JsonArray locs = new JsonArray();
					locs.add(loc);
					no.add("locations", locs);
				}
				ns.add(no);
			}
			invocation.add("toolExecutionNotifications", ns);
		}
		invocations.add(invocation);
		run.add("invocations", invocations);
		run.addProperty("columnKind", "utf16CodeUnits");
		JsonArray results = new JsonArray();
		for (FileReport f : files) {
			List<String> prints = Fingerprints.of(f);
			for (int i = 0; i < f.diagnostics().size(); i++) {
				Diagnostic d = f.diagnostics().get(i);
				Integer ri = index.get(d.rule());
				if (ri == null) {
					throw new IllegalArgumentException("rule " + d.rule() + " is not in the catalog");
				}
				results.add(result(f, d, ri, prints.get(i)));
			}
		}
		run.add("results", results);
		runs.add(run);
		log.add("runs", runs);
		return log;
	}

	public static String level(Severity s) {
		return switch (s) {
		case ERROR -> "error";
		case WARNING -> "warning";
		case INFO, HINT -> "note";
		};
	}

	private static JsonObject rule(RuleInfo r, ToolInfo tool) {
		JsonObject o = new JsonObject();
		o.addProperty("id", r.id());
		o.addProperty("name", r.name());
		o.add("shortDescription", text(r.title()));
		o.add("fullDescription", text(r.description()));
		// No link rather than a link to a page that does not exist: without a configured docs URL the page
		// travels inline (help.markdown), which code scanning shows.
		String helpUri = tool.docsUri() == null ? null : tool.docsUri() + r.pageName();
		if (helpUri != null) {
			o.addProperty("helpUri", helpUri);
		}
		JsonObject help = new JsonObject();
		help.addProperty("text", r.title() + ". " + r.description() + " See "
				+ (helpUri != null ? helpUri : "docs/rules/" + r.pageName() + " of pto-tools (pto check --help)."));
		if (r.helpMarkdown() != null) {
			help.addProperty("markdown", r.helpMarkdown());
		}
		o.add("help", help);
		JsonObject config = new JsonObject();
		config.addProperty("level", level(r.defaultSeverity()));
		o.add("defaultConfiguration", config);
		JsonObject props = new JsonObject();
		JsonArray tags = new JsonArray();
		tags.add("pypto");
		props.add("tags", tags);
		o.add("properties", props);
		return o;
	}

	private static JsonObject result(FileReport f, Diagnostic d, int ruleIndex, String fingerprint) {
		JsonObject o = new JsonObject();
		o.addProperty("ruleId", d.rule());
		o.addProperty("ruleIndex", ruleIndex);
		o.addProperty("level", level(d.severity()));
		o.add("message", text(d.message()));
		JsonArray locations = new JsonArray();
		locations.add(location(f, Range.of(d.span(), f.lines()), null, -1));
		o.add("locations", locations);
		if (!d.related().isEmpty()) {
			JsonArray related = new JsonArray();
			int id = 1;
			for (Diagnostic.Related r : d.related()) {
				related.add(location(f, Range.of(r.span(), f.lines()), r.message(), id++));
			}
			o.add("relatedLocations", related);
		}
		JsonObject fp = new JsonObject();
		fp.addProperty(Fingerprints.KEY, fingerprint);
		o.add("partialFingerprints", fp);
		if (!d.fixes().isEmpty()) {
			JsonArray fixes = new JsonArray();
			for (Fix fix : d.fixes()) {
				JsonObject fo = new JsonObject();
				fo.add("description", text(fix.title()));
				JsonObject change = new JsonObject();
				change.add("artifactLocation", artifact(f.path()));
				JsonArray replacements = new JsonArray();
				for (Fix.Edit e : fix.edits()) {
					JsonObject rep = new JsonObject();
					rep.add("deletedRegion", region(Range.of(e.span(), f.lines())));
					rep.add("insertedContent", textContent(e.replacement()));
					replacements.add(rep);
				}
				change.add("replacements", replacements);
				JsonArray changes = new JsonArray();
				changes.add(change);
				fo.add("artifactChanges", changes);
				fixes.add(fo);
			}
			o.add("fixes", fixes);
		}
		return o;
	}

	private static JsonObject location(FileReport f, Range r, String message, int id) {
		JsonObject loc = new JsonObject();
		if (id >= 0) {
			loc.addProperty("id", id);
		}
		JsonObject phys = new JsonObject();
		phys.add("artifactLocation", artifact(f.path()));
		phys.add("region", region(r));
		loc.add("physicalLocation", phys);
		if (message != null) {
			loc.add("message", text(message));
		}
		return loc;
	}

	static JsonObject artifact(String path) {
		JsonObject a = new JsonObject();
		a.addProperty("uri", Uris.of(path));
		if (Uris.isRelative(path)) {
			a.addProperty("uriBaseId", SRCROOT);
		}
		return a;
	}

	static JsonObject region(Range r) {
		JsonObject o = new JsonObject();
		o.addProperty("startLine", r.line());
		o.addProperty("startColumn", r.column());
		o.addProperty("endLine", r.endLine());
		o.addProperty("endColumn", r.endColumn());
		return o;
	}

	private static JsonObject text(String s) {
		JsonObject o = new JsonObject();
		o.addProperty("text", s);
		return o;
	}

	private static JsonObject textContent(String s) {
		JsonObject o = new JsonObject();
		o.addProperty("text", s);
		return o;
	}
}
