package dev.ptotools.language.ide.contentassist.antlr;

import org.antlr.runtime.TokenSource;

import dev.ptotools.language.ide.contentassist.antlr.internal.InternalPythonParser;
import dev.ptotools.language.parser.PythonLayoutTokenSource;

/** Python layout for the content-assist parser; all logic lives in {@link PythonLayoutTokenSource}. */
public class PythonTokenSource extends PythonLayoutTokenSource {

	public PythonTokenSource(TokenSource delegate) {
		super(delegate, InternalPythonParser.tokenNames);
	}
}
