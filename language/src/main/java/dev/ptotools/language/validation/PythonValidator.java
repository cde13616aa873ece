package dev.ptotools.language.validation;

/**
 * Xtext's validator hook. Deliberately empty: syntax-level checks run in the front end
 * ({@code PythonFrontEnd}) so that batch runs and the editor share them, and PyPTO rules live in the
 * analyzer.
 */
public class PythonValidator extends AbstractPythonValidator {
}
