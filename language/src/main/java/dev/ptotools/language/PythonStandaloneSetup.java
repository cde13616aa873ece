package dev.ptotools.language;

/** Creates the language's injector and registers its EMF package, without Equinox. */
public class PythonStandaloneSetup extends PythonStandaloneSetupGenerated {

	public static void doSetup() {
		new PythonStandaloneSetup().createInjectorAndDoEMFRegistration();
	}
}
