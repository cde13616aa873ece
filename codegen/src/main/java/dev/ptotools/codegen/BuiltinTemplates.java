package dev.ptotools.codegen;

import java.util.SortedMap;

/**
 * Where the chip builds of pypto's builtin collectives come from. pypto does not generate them: it renders
 * the {@code *.in} templates shipped in its Python package ({@code pypto.runtime.builtins.collectives.<op>}
 * /templates) into each distributed build that dispatches the collective. This tool carries none of
 * pypto's files, so it reads the same templates from the pypto installed for the project (found by the
 * CLI and the server, see dev.ptotools.config.PyptoPackage); without them the build cannot be written.
 *
 * <p>Implementations are values: equal when they read the same place, so that {@link CompileOptions}
 * stays a cache key.
 */
public interface BuiltinTemplates {

	/** No pypto package: every builtin collective's build is reported as not written. */
	BuiltinTemplates NONE = new BuiltinTemplates() {
		@Override
		public SortedMap<String, String> templates(String templatePackage) {
			return null;
		}

		@Override
		public String whereLooked() {
			return "no pypto package was configured or found";
		}
	};

	/**
	 * The templates of a package (e.g. {@code pypto.runtime.builtins.collectives.allreduce}): the text of
	 * each file of its {@code templates/} folder, by file name; null when the package or its folder is not
	 * found or cannot be read.
	 */
	SortedMap<String, String> templates(String templatePackage);

	/** Where the templates were looked for, for the message that says they were not found. */
	String whereLooked();
}
