package dev.ptotools.language.ide;

import com.google.inject.Guice;
import com.google.inject.Injector;

import dev.ptotools.language.PythonRuntimeModule;
import dev.ptotools.language.PythonStandaloneSetup;

import org.eclipse.xtext.util.Modules2;

/** Injector for running the language in a language server: runtime plus ide bindings. */
public class PythonIdeSetup extends PythonStandaloneSetup {

	@Override
	public Injector createInjector() {
		return Guice.createInjector(Modules2.mixin(new PythonRuntimeModule(), new PythonIdeModule()));
	}
}
