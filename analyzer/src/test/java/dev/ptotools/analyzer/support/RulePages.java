package dev.ptotools.analyzer.support;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.language.support.Examples;

/** Reading the rule pages of docs/rules/ in tests: their sections and the code blocks in them. */
public final class RulePages {

	/** The sections every page has, in this order. */
	public static final List<String> SECTIONS = List.of("What it flags", "Why it matters", "Example", "Fix", "Suppression",
			"See also");

	private static final Pattern PYTHON = Pattern.compile("```python\\n(.*?)```", Pattern.DOTALL);
	private static final Pattern TEXT = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL);

	private RulePages() {
	}

	public static Path dir() {
		return Examples.dir().getParent().resolve("rules");
	}

	/** The "## " headings of a page, in order. */
	public static List<String> sections(String page) {
		List<String> out = new ArrayList<>();
		Matcher m = Pattern.compile("^## (.+)$", Pattern.MULTILINE).matcher(page);
		while (m.find()) {
			out.add(m.group(1).strip());
		}
		return out;
	}

	/** The text of one section (empty when the page has none). */
	public static String section(String page, String name) {
		int start = page.indexOf("\n## " + name + "\n");
		if (start < 0) {
			return "";
		}
		int end = page.indexOf("\n## ", start + 4);
		return page.substring(start, end < 0 ? page.length() : end);
	}

	/** The first ```python block of a section, or null. */
	public static String firstPython(String section) {
		return first(PYTHON, section);
	}

	/** The first ```text block of a section, or null. */
	public static String firstText(String section) {
		return first(TEXT, section);
	}

	private static String first(Pattern p, String section) {
		Matcher m = p.matcher(section);
		return m.find() ? m.group(1) : null;
	}
}
