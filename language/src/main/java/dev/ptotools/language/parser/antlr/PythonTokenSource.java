package dev.ptotools.language.parser.antlr;

import org.antlr.runtime.TokenSource;

import dev.ptotools.language.parser.PythonLayoutTokenSource;
import dev.ptotools.language.parser.antlr.internal.InternalPythonParser;

/** Python layout for the runtime parser; all logic lives in {@link PythonLayoutTokenSource}. */
public class PythonTokenSource extends PythonLayoutTokenSource {

	public PythonTokenSource(TokenSource delegate) {
		super(delegate, InternalPythonParser.tokenNames);
	}
}
