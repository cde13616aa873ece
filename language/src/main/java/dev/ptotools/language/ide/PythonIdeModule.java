package dev.ptotools.language.ide;

/** Bindings of the generic ide part (content assist parser and friends). */
public class PythonIdeModule extends AbstractPythonIdeModule {
}
