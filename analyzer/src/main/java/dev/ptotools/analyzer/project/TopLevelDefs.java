package dev.ptotools.analyzer.project;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.ir.Span;

/**
 * Where a module's text defines a name at its top level, for navigation into another module: the
 * {@code def} or {@code class} statements at column 0 (decorated or not), and a name inside a binding
 * statement. Read from the text, as the module's bindings ({@link ProjectModules}) keep only their
 * statements' spans and no def or class.
 */
final class TopLevelDefs {

	private TopLevelDefs() {
	}

	/** The offset of the name in the last top-level {@code def name} or {@code class name}, or -1. */
	static int lastDef(String text, String name) {
		if (text == null || text.isEmpty()) {
			return -1;
		}
		Matcher m = Pattern.compile("^(?:async[ \\t]+)?(?:def|class)[ \\t]+(" + Pattern.quote(name) + ")(?![\\w])",
				Pattern.MULTILINE | Pattern.UNICODE_CHARACTER_CLASS).matcher(text);
		int at = -1;
		while (m.find()) {
			at = m.start(1);
		}
		return at;
	}

	/** The name as a whole identifier inside a statement's span, else the statement's first characters. */
	static Span nameIn(String text, String name, Span statement) {
		int end = Math.min(text.length(), statement.end());
		int start = Math.max(0, Math.min(statement.start(), end));
		Matcher m = Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "(?![\\w])", Pattern.UNICODE_CHARACTER_CLASS)
				.matcher(text).region(start, end);
		// the bound name: the last occurrence in an import (from a import b as name), the first in an assignment
		int at = -1;
		boolean isImport = text.startsWith("from", start) || text.startsWith("import", start);
		while (m.find()) {
			at = m.start();
			if (!isImport) {
				break;
			}
		}
		return at < 0 ? new Span(start, Math.min(end, start + name.length())) : new Span(at, at + name.length());
	}
}
