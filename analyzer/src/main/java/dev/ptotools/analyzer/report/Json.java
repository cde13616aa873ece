package dev.ptotools.analyzer.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** Gson set up for reports: pretty, no HTML escaping, so messages read as written. */
final class Json {

	static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().serializeNulls().create();

	private Json() {
	}

	static String write(JsonElement e) {
		return GSON.toJson(e) + "\n";
	}

	static void range(JsonObject o, Range r) {
		o.addProperty("line", r.line());
		o.addProperty("column", r.column());
		o.addProperty("endLine", r.endLine());
		o.addProperty("endColumn", r.endColumn());
	}
}
