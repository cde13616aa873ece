package dev.ptotools.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.google.inject.Binding;
import com.google.inject.ConfigurationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Scopes;
import com.google.inject.spi.ConstructorBinding;
import com.google.inject.spi.InstanceBinding;
import com.google.inject.spi.LinkedKeyBinding;
import com.google.inject.spi.ProviderInstanceBinding;

import dev.ptotools.language.support.Examples;

/**
 * {@link PythonParserModule}, the parser's bindings only, builds the parser the full runtime module
 * builds: after parsing the example programs and broken input with a front end on it, every binding its
 * injector holds (bound or made just in time) resolves to the implementation, and the scope, that the
 * full {@link PythonRuntimeModule}'s injector resolves the same key to; and both parse alike.
 */
class ParserModuleTest {

	private static final List<String> BROKEN = List.of("for x in range(3)\n    print(x)\n", "x = foo(1,\n      2\ny = 3\n",
			"x = \"abc\ny = 2\n", "if x:\n        a = 1\n\tb = 2\n", "f() = 1\n", "x = [1 2]\n", "x = 1 \u20ac 2\n",
			"class A:\n\nx = 1\n", "def f(a)\n    return a\n", "x = (1, 2))\n", "match x:\n    case [a, *_]:\n        pass\n");

	@Test
	void theParserOfTheFullModule() throws Exception {
		Injector lean = PythonParserModule.createInjector();
		PythonFrontEnd leanFrontEnd = PythonFrontEnd.on(lean);
		PythonFrontEnd fullFrontEnd = PythonFrontEnd.on(new PythonStandaloneSetup().createInjectorAndDoEMFRegistration());
		List<String> texts = new ArrayList<>(BROKEN);
		for (Path p : Examples.files()) {
			texts.add(Files.readString(p));
		}
		for (String text : texts) {
			ParsedFile a = leanFrontEnd.parse(text);
			ParsedFile b = fullFrontEnd.parse(text);
			assertEquals(b.problems(), a.problems(), text);
			assertEquals(b.spans().objects().size(), a.spans().objects().size(), text);
		}
		Injector full = Guice.createInjector(new PythonRuntimeModule());
		int compared = 0;
		for (Map.Entry<Key<?>, Binding<?>> e : lean.getAllBindings().entrySet()) {
			Key<?> key = e.getKey();
			if (key.getTypeLiteral().getRawType().getName().startsWith("com.google.inject")
					|| key.getTypeLiteral().getRawType() == java.util.logging.Logger.class) {
				continue; // Guice's own
			}
			assertEquals(target(full, key), target(lean, key), "the implementation of " + key);
			assertEquals(Scopes.isSingleton(full.getBinding(key)), Scopes.isSingleton(e.getValue()), "the scope of " + key);
			compared++;
		}
		assertTrue(compared >= 20, "the parser's graph was compared: " + compared + " bindings");
	}

	/** What a key resolves to: a class made by its constructor, an instance's class, or a provider's. */
	private static String target(Injector injector, Key<?> key) {
		Binding<?> b;
		try {
			b = injector.getBinding(key);
		} catch (ConfigurationException e) {
			return "no binding";
		}
		if (b instanceof LinkedKeyBinding<?> l) {
			return target(injector, l.getLinkedKey());
		}
		if (b instanceof ConstructorBinding<?> c) {
			return "constructor of " + c.getConstructor().getDeclaringType();
		}
		if (b instanceof InstanceBinding<?> i) {
			return "instance " + (i.getInstance() instanceof String s ? s : i.getInstance().getClass().getName());
		}
		if (b instanceof ProviderInstanceBinding<?> p) {
			Object provider = p.getUserSuppliedProvider();
			return "provider " + (provider instanceof org.eclipse.xtext.parser.antlr.LexerProvider<?> lp ? lp.get().getClass()
					: provider.getClass());
		}
		return b.getClass().getSimpleName();
	}
}
