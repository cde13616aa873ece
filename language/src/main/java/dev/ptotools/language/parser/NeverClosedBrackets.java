package dev.ptotools.language.parser;

import java.util.Set;

import org.antlr.runtime.CommonToken;
import org.antlr.runtime.Token;

/**
 * The brackets (by start offset) that a first layout of a text found never closed, for the layout of a
 * second parse, which closes each where the statement it broke ends instead of where a statement keyword
 * or the end of file forces it. Only invalid text has such brackets.
 */
final class NeverClosedBrackets {

	static final NeverClosedBrackets NONE = new NeverClosedBrackets(Set.of());

	private final Set<Integer> starts;

	NeverClosedBrackets(Set<Integer> starts) {
		this.starts = Set.copyOf(starts);
	}

	/** Whether one of the open brackets (innermost last) is never closed. */
	boolean anyOpen(Token[] open, int depth) {
		for (int i = 0; i < depth && !starts.isEmpty(); i++) {
			if (open[i] instanceof CommonToken c && starts.contains(c.getStartIndex())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a never-closed bracket was opened on the first line of a for, while, if, elif, with or def
	 * header: the header ends with that line and the lines after it are its block ({@code for r in
	 * pl.range(} typed so far). Parameters that go on over several lines end with a ')' that closes the
	 * bracket, so a def's bracket is never-closed only when its line lost the ')'.
	 */
	boolean openedOnHeaderLine(Token[] open, int depth, Token lineFirst, TokenKinds k) {
		String kw = lineFirst == null ? null : k.compoundKeyword[lineFirst.getType()];
		if (kw == null || !(kw.equals("for") || kw.equals("while") || kw.equals("if") || kw.equals("elif")
				|| kw.equals("with") || kw.equals("async") || kw.equals("def"))) {
			return false;
		}
		for (int i = 0; i < depth; i++) {
			if (open[i] instanceof CommonToken c && starts.contains(c.getStartIndex())
					&& c.getLine() == lineFirst.getLine()) {
				return true;
			}
		}
		return false;
	}
}
