package dev.ptotools.analyzer.ir;

/**
 * pypto's hierarchy levels. Aliases map onto their primary level as pypto prints them
 * (NODE is HOST, UMA and PROCESSOR are CHIP, L2CACHE is CHIP_DIE, POD and CLOS1/2 are clusters).
 */
public enum Level {
	AIV, AIC, CORE_GROUP, CHIP_DIE, CHIP, HOST, CLUSTER_0, CLUSTER_1, CLUSTER_2, GLOBAL;

	public static Level named(String name) {
		return switch (name) {
		case "L2CACHE" -> CHIP_DIE;
		case "PROCESSOR", "UMA" -> CHIP;
		case "NODE" -> HOST;
		case "POD" -> CLUSTER_0;
		case "CLOS1" -> CLUSTER_1;
		case "CLOS2" -> CLUSTER_2;
		default -> {
			for (Level l : values()) {
				if (l.name().equals(name)) {
					yield l;
				}
			}
			yield null;
		}
		};
	}
}
