package dev.ptotools.analyzer.ir;

/** Parameter direction: In by default, pl.Out[...] and pl.InOut[...] wrappers. */
public enum Direction {
	In, Out, InOut
}
