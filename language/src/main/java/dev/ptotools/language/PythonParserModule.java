package dev.ptotools.language;

import org.eclipse.emf.ecore.EPackage;
import org.eclipse.emf.ecore.resource.Resource;
import org.eclipse.xtext.Constants;
import org.eclipse.xtext.IGrammarAccess;
import org.eclipse.xtext.XtextPackage;
import org.eclipse.xtext.conversion.IValueConverterService;
import org.eclipse.xtext.parser.IAstFactory;
import org.eclipse.xtext.parser.IParser;
import org.eclipse.xtext.parser.ITokenToStringConverter;
import org.eclipse.xtext.parser.antlr.IAntlrTokenFileProvider;
import org.eclipse.xtext.parser.antlr.ISyntaxErrorMessageProvider;
import org.eclipse.xtext.parser.antlr.ITokenDefProvider;
import org.eclipse.xtext.parser.antlr.Lexer;
import org.eclipse.xtext.parser.antlr.LexerBindings;
import org.eclipse.xtext.parser.antlr.LexerProvider;
import org.eclipse.xtext.resource.XtextResourceSet;
import org.eclipse.xtext.resource.impl.BinaryGrammarResourceFactoryImpl;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import com.google.inject.name.Names;

import dev.ptotools.language.parser.PythonSourceParser;
import dev.ptotools.language.parser.PythonSyntaxErrorMessages;
import dev.ptotools.language.parser.PythonValueConverters;
import dev.ptotools.language.parser.antlr.PythonAntlrTokenFileProvider;
import dev.ptotools.language.parser.antlr.lexer.InternalPythonLexer;
import dev.ptotools.language.python.PythonPackage;

/**
 * The bindings the parser needs, and no others: what {@link PythonFrontEnd} runs on. Each is the one
 * {@link PythonRuntimeModule} makes (its generated and Xtext's defaults included); what is not bound
 * here the injector makes just in time, as the full one does ({@code ParserModuleTest} checks both
 * after parsing the example programs and broken input).
 * <p>
 * The full module binds some 150 services (serializer, validator, scoping, resource descriptions,
 * formatter...) and Guice resolves every one's injection points when it creates the injector, and the
 * generated setup makes the validator eagerly and registers the language's resource factories: about
 * a third of a second of a small {@code pto check}, for services no front door uses.
 */
public final class PythonParserModule extends AbstractModule {

	@Override
	protected void configure() {
		bind(String.class).annotatedWith(Names.named(Constants.LANGUAGE_NAME)).toInstance("dev.ptotools.language.Python");
		bind(ClassLoader.class).toInstance(PythonParserModule.class.getClassLoader());
		bind(IGrammarAccess.class).to(dev.ptotools.language.services.PythonGrammarAccess.class);
		bind(IParser.class).to(PythonSourceParser.class);
		bind(IValueConverterService.class).to(PythonValueConverters.class);
		bind(ISyntaxErrorMessageProvider.class).to(PythonSyntaxErrorMessages.class);
		bind(IAstFactory.class).to(org.eclipse.xtext.parser.DefaultEcoreElementFactory.class);
		bind(ITokenToStringConverter.class).to(org.eclipse.xtext.parser.antlr.AntlrTokenToStringConverter.class);
		bind(ITokenDefProvider.class).to(org.eclipse.xtext.parser.antlr.AntlrTokenDefProvider.class);
		bind(IAntlrTokenFileProvider.class).to(PythonAntlrTokenFileProvider.class);
		bind(InternalPythonLexer.class).toProvider(LexerProvider.create(InternalPythonLexer.class));
		bind(Lexer.class).annotatedWith(Names.named(LexerBindings.RUNTIME)).to(InternalPythonLexer.class);
		// the grammar (Python.xtextbin) is loaded through a resource set
		bind(XtextResourceSet.class).to(org.eclipse.xtext.resource.SynchronizedXtextResourceSet.class);
	}

	/**
	 * An injector for parsing, after registering in EMF what loading the grammar and building the AST
	 * need (the binary grammar's resource factory, Xtext's and the language's packages), each unless it
	 * is there already.
	 */
	public static Injector createInjector() {
		var factories = Resource.Factory.Registry.INSTANCE.getExtensionToFactoryMap();
		if (!factories.containsKey("xtextbin")) {
			factories.put("xtextbin", new BinaryGrammarResourceFactoryImpl());
		}
		if (!EPackage.Registry.INSTANCE.containsKey(XtextPackage.eNS_URI)) {
			EPackage.Registry.INSTANCE.put(XtextPackage.eNS_URI, XtextPackage.eINSTANCE);
		}
		if (!EPackage.Registry.INSTANCE.containsKey(PythonPackage.eNS_URI)) {
			EPackage.Registry.INSTANCE.put(PythonPackage.eNS_URI, PythonPackage.eINSTANCE);
		}
		return Guice.createInjector(Stage.DEVELOPMENT, new PythonParserModule());
	}
}
