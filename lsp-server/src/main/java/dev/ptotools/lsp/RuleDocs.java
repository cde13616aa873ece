package dev.ptotools.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import dev.ptotools.Main;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.Rules;

/**
 * Links to rule pages. The pages (docs/rules/*.md) ship inside the jar; the first request extracts
 * them to a cache folder so that editors can open them with a file: link, offline. PTO_DOCS_URL (or
 * -Dpto.docs.url) points links at a web copy instead.
 */
public final class RuleDocs {

	private static volatile Path extracted;

	private RuleDocs() {
	}

	/** The link to a rule's page, or null when the rule has none. */
	public static String uri(String rule) {
		String base = System.getProperty("pto.docs.url", System.getenv("PTO_DOCS_URL"));
		if (base != null && !base.isBlank()) {
			return (base.endsWith("/") ? base : base + "/") + rule + ".md";
		}
		Path dir = extract();
		if (dir == null) {
			return null;
		}
		Path page = dir.resolve(rule + ".md");
		return Files.isRegularFile(page) ? page.toUri().toString() : null;
	}

	private static Path extract() {
		Path dir = extracted;
		if (dir != null) {
			return dir;
		}
		synchronized (RuleDocs.class) {
			if (extracted != null) {
				return extracted;
			}
			try {
				String home = System.getProperty("user.home", ".");
				Path target = Path.of(System.getenv().getOrDefault("XDG_CACHE_HOME", home + "/.cache"), "pto-tools",
						Main.version(), "rules");
				Files.createDirectories(target);
				copy("README", target);
				for (Rule r : Rules.all()) {
					copy(r.id(), target);
				}
				copy("PTO900", target);
				extracted = target;
			} catch (IOException | RuntimeException e) {
				extracted = null;
			}
			return extracted;
		}
	}

	private static void copy(String name, Path target) throws IOException {
		try (InputStream in = RuleDocs.class.getResourceAsStream("/docs/rules/" + name + ".md")) {
			if (in != null) {
				Files.copy(in, target.resolve(name + ".md"), StandardCopyOption.REPLACE_EXISTING);
			}
		}
	}
}
