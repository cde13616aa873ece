package dev.ptotools.analyzer.catalog;

import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The catalog of pl./pld. members, from builtins.json (extracted from pypto's public surface).
 * Lookup is by canonical name or alias, always spelled with the {@code pl}/{@code pld} prefixes.
 */
public final class Builtins {

	private static final Builtins INSTANCE = load();

	private final Map<String, Builtin> byName;
	private final List<Builtin> all;

	private Builtins(List<Builtin> all) {
		this.all = List.copyOf(all);
		Map<String, Builtin> map = new HashMap<>();
		for (Builtin b : all) {
			map.put(b.name(), b);
		}
		for (Builtin b : all) {
			for (String a : b.aliases()) {
				map.putIfAbsent(a, b);
			}
		}
		this.byName = Map.copyOf(map);
	}

	public static Builtins get() {
		return INSTANCE;
	}

	/** The member a dotted name denotes ("pld.window" gives pld.tensor.window), or null. */
	public Builtin lookup(String dotted) {
		Builtin b = byName.get(dotted);
		if (b == null && dotted.startsWith("pl.") && dotted.endsWith(".get_byte")) {
			b = byName.get("pl.<DTYPE>.get_byte");
		}
		return b;
	}

	public Collection<Builtin> all() {
		return all;
	}

	/** Names directly under a prefix ("pld." gives system, tensor, tile, window, world_size...). */
	public List<String> membersOf(String prefix) {
		TreeSet<String> names = new TreeSet<>();
		for (String n : byName.keySet()) {
			if (n.startsWith(prefix) && !n.contains("<")) {
				String rest = n.substring(prefix.length());
				int dot = rest.indexOf('.');
				names.add(dot < 0 ? rest : rest.substring(0, dot));
			}
		}
		return List.copyOf(names);
	}

	/** Whether a dotted name is a namespace (pl.tensor, pld.system) rather than a member. */
	public boolean isNamespace(String dotted) {
		String prefix = dotted + ".";
		for (String n : byName.keySet()) {
			if (n.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	private static Builtins load() {
		try (Reader r = new InputStreamReader(Builtins.class.getResourceAsStream("/dev/ptotools/analyzer/builtins.json"),
				StandardCharsets.UTF_8)) {
			JsonArray array = JsonParser.parseReader(r).getAsJsonArray();
			List<Builtin> list = new ArrayList<>();
			for (JsonElement e : array) {
				JsonObject o = e.getAsJsonObject();
				List<Builtin.BuiltinParam> params = new ArrayList<>();
				if (o.has("params")) {
					for (JsonElement p : o.getAsJsonArray("params")) {
						JsonObject po = p.getAsJsonObject();
						params.add(new Builtin.BuiltinParam(po.get("name").getAsString(), str(po, "kind", "positional"),
								str(po, "default", null), po.has("required") && po.get("required").getAsBoolean()));
					}
				}
				list.add(new Builtin(o.get("name").getAsString(), strings(o, "aliases"), List.copyOf(params),
						str(o, "returns", null), str(o, "op", null), str(o, "category", ""), str(o, "doc", ""),
						strings(o, "members"), o.has("bytes") ? o.get("bytes").getAsInt() : -1, values(o),
						o.has("value") ? o.get("value").getAsLong() : null));
			}
			return new Builtins(list);
		} catch (Exception e) {
			throw new IllegalStateException("cannot load the builtin catalog", e);
		}
	}

	private static java.util.Map<String, Long> values(JsonObject o) {
		java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
		if (o.has("values")) {
			for (var e : o.getAsJsonObject("values").entrySet()) {
				out.put(e.getKey(), e.getValue().getAsLong());
			}
		}
		return java.util.Map.copyOf(out);
	}

	private static String str(JsonObject o, String key, String dflt) {
		return o.has(key) && !o.get(key).isJsonNull() ? o.get(key).getAsString() : dflt;
	}

	private static List<String> strings(JsonObject o, String key) {
		List<String> out = new ArrayList<>();
		if (o.has(key)) {
			for (JsonElement e : o.getAsJsonArray(key)) {
				out.add(e.getAsString());
			}
		}
		return List.copyOf(out);
	}
}
