package dev.ptotools.codegen.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The record of what pto wrote into one program folder, kept beside the files as {@link #FILE}: the
 * source the program came from (relative to the output folder, '/'-separated; null for a buffer
 * without a file) and every file with the SHA-256 of its bytes, relative to the program folder. It is
 * what lets the generated files be byte-identical to pypto's (they carry no marker of their own) while
 * the writer still replaces only folders it wrote and removes the folders of programs that are gone;
 * cargo's and Bazel's output records serve the same purpose.
 */
public record Manifest(String source, Map<String, String> files) {

	/** The manifest's name inside a program folder; hidden, as pypto's layout has no such file. */
	public static final String FILE = ".pto-manifest.json";

	private static final String GENERATOR = "pto-tools";
	private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

	public Manifest {
		files = java.util.Collections.unmodifiableMap(new TreeMap<>(files));
	}

	public String toJson() {
		JsonObject o = new JsonObject();
		o.addProperty("generator", GENERATOR);
		o.addProperty("source", source);
		JsonObject f = new JsonObject();
		files.forEach(f::addProperty);
		o.add("files", f);
		return GSON.toJson(o) + "\n";
	}

	/** The manifest of a program folder; null when it has none or one that is not ours. */
	public static Manifest read(Path folder) {
		Path file = folder.resolve(FILE);
		if (!Files.isRegularFile(file)) {
			return null;
		}
		try {
			JsonElement e = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8));
			if (!e.isJsonObject() || !e.getAsJsonObject().has("files")
					|| !GENERATOR.equals(string(e.getAsJsonObject().get("generator")))) {
				return null;
			}
			Map<String, String> files = new TreeMap<>();
			for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().getAsJsonObject("files").entrySet()) {
				files.put(f.getKey(), string(f.getValue()));
			}
			return new Manifest(string(e.getAsJsonObject().get("source")), files);
		} catch (IOException | RuntimeException e) {
			return null;
		}
	}

	private static String string(JsonElement e) {
		return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
	}

	/** "sha256:" and the hex digest of a text's UTF-8 bytes. */
	public static String hash(String content) {
		return hash(content.getBytes(StandardCharsets.UTF_8));
	}

	public static String hash(byte[] bytes) {
		try {
			return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		} catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("every Java has SHA-256", e);
		}
	}
}
