package dev.ptotools.analyzer.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.diagnostics.Diagnostic;

/**
 * Fingerprints that identify a finding across commits: a hash of the rule, the file, the text of the
 * finding's first line with surrounding white space stripped, and the occurrence index among the
 * findings of the file with the same rule and line text. Line numbers are not part of it, so a
 * finding keeps its fingerprint when lines are added or removed above it.
 */
public final class Fingerprints {

	/** The key under SARIF's {@code partialFingerprints}. */
	public static final String KEY = "ptoFindingHash/v1";

	private Fingerprints() {
	}

	/** One fingerprint per diagnostic of the file, in the file's order. */
	public static List<String> of(FileReport file) {
		List<String> out = new ArrayList<>(file.diagnostics().size());
		Map<String, Integer> seen = new HashMap<>();
		for (Diagnostic d : file.diagnostics()) {
			String key = d.rule() + '\u0000' + file.path() + '\u0000' + Sources.lineText(file, d.span().start()).strip();
			int occurrence = seen.merge(key, 1, Integer::sum) - 1;
			out.add(sha256(key + '\u0000' + occurrence).substring(0, 32) + ":" + (occurrence + 1));
		}
		return List.copyOf(out);
	}

	static String sha256(String s) {
		try {
			MessageDigest md = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
		} catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}
}
