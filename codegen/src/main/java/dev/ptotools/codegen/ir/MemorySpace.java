package dev.ptotools.codegen.ir;

/** Where a tile lives (pypto's MemorySpace). Mat, Left, Right, Acc, Bias and the scales are cube side. */
public enum MemorySpace {
	DDR, Vec, Mat, Left, Right, Acc, Bias, ScalarLocal, LeftScale, RightScale;

	/** Whether a tile in this space belongs to the cube core (AIC) rather than the vector core. */
	public boolean isCube() {
		return switch (this) {
		case Mat, Left, Right, Acc, Bias, LeftScale, RightScale -> true;
		default -> false;
		};
	}

	public static MemorySpace named(String name) {
		for (MemorySpace m : values()) {
			if (m.name().equals(name)) {
				return m;
			}
		}
		return null;
	}
}
