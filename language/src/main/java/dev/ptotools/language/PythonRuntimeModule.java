package dev.ptotools.language;

import org.eclipse.xtext.conversion.IValueConverterService;
import org.eclipse.xtext.parser.IParser;
import org.eclipse.xtext.parser.antlr.ISyntaxErrorMessageProvider;

import dev.ptotools.language.parser.PythonSourceParser;
import dev.ptotools.language.parser.PythonSyntaxErrorMessages;
import dev.ptotools.language.parser.PythonValueConverters;

/** Runtime bindings of the Python language beyond what the generator wires. */
public class PythonRuntimeModule extends AbstractPythonRuntimeModule {

	@Override
	public Class<? extends IParser> bindIParser() {
		return PythonSourceParser.class;
	}

	@Override
	public Class<? extends IValueConverterService> bindIValueConverterService() {
		return PythonValueConverters.class;
	}

	public Class<? extends ISyntaxErrorMessageProvider> bindISyntaxErrorMessageProvider() {
		return PythonSyntaxErrorMessages.class;
	}
}
