package dev.ptotools.language.parser;

import org.eclipse.xtext.conversion.IValueConverter;
import org.eclipse.xtext.conversion.ValueConverter;
import org.eclipse.xtext.conversion.impl.AbstractDeclarativeValueConverterService;
import org.eclipse.xtext.conversion.impl.AbstractNullSafeConverter;
import org.eclipse.xtext.nodemodel.INode;

/**
 * Terminals keep their source text: string and number literals are decoded by whoever needs their
 * value (the analyzer folds constants), so a bad escape never turns into a parse error here.
 */
public class PythonValueConverters extends AbstractDeclarativeValueConverterService {

	private static final IValueConverter<String> VERBATIM = new AbstractNullSafeConverter<>() {
		@Override
		protected String internalToValue(String string, INode node) {
			return string;
		}

		@Override
		protected String internalToString(String value) {
			return value;
		}
	};

	@ValueConverter(rule = "ID")
	public IValueConverter<String> ID() {
		return VERBATIM;
	}

	@ValueConverter(rule = "STRING")
	public IValueConverter<String> STRING() {
		return VERBATIM;
	}

	@ValueConverter(rule = "NUMBER")
	public IValueConverter<String> NUMBER() {
		return VERBATIM;
	}
}
