package dev.ptotools.codegen.emit.orchestration;

/** The core a kernel runs on (pypto's CoreType): AIC kernels on the cube core, AIV on the vector core. */
public enum CoreType {
	CUBE, VECTOR;

	/** The core-type name kernel_config.py uses ("aic" / "aiv"). */
	public String configName() {
		return this == VECTOR ? "aiv" : "aic";
	}
}
