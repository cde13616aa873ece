package dev.ptotools.language.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;

import org.junit.jupiter.api.Test;

/** The names Xtext gives symbol tokens: the built-in table of ASCII symbols agrees with the JDK's Unicode names. */
class TokenKindsTest {

	private static String fromUnicodeName(char c) {
		StringBuilder b = new StringBuilder();
		for (String word : Character.getName(c).split("[ -]")) {
			b.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
		}
		return b.toString();
	}

	@Test
	void everyAsciiSymbolIsNamedAsItsUnicodeName() {
		for (char c = '!'; c <= '~'; c++) {
			if (!Character.isLetterOrDigit(c)) {
				assertEquals(fromUnicodeName(c), TokenKinds.generatedName(String.valueOf(c)), "for " + c);
			}
		}
		assertEquals("ColonEqualsSign", TokenKinds.generatedName(":="));
		assertEquals("Match", TokenKinds.generatedName("match"));
	}
}
