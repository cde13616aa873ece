package dev.ptotools.codegen.types;

/**
 * pypto's DataType with every spelling the generators need: the DSL name ({@code pl.FP32}), pypto's
 * {@code str(dtype)} ("fp32", used by torch names and the meta JSON), the C scalar type
 * ({@code DataType::ToCTypeString}), the runtime enum of the orchestration API
 * ({@code GetRuntimeDataTypeString}) and simpler's Python {@code DataType} member.
 */
public enum DType {
	BOOL("BOOL", "bool", "bool", "UNKNOWN", "BOOL", 8, false),
	INT4("INT4", "int4", "unknown", "UNKNOWN", null, 4, false),
	INT8("INT8", "int8", "int8_t", "INT8", "INT8", 8, false),
	INT16("INT16", "int16", "int16_t", "INT16", "INT16", 16, false),
	INT32("INT32", "int32", "int32_t", "INT32", "INT32", 32, false),
	INT64("INT64", "int64", "int64_t", "INT64", "INT64", 64, false),
	INDEX("INDEX", "index", "int64_t", "INT64", null, 64, false),
	UINT4("UINT4", "uint4", "unknown", "UNKNOWN", null, 4, false),
	UINT8("UINT8", "uint8", "uint8_t", "UINT8", "UINT8", 8, false),
	UINT16("UINT16", "uint16", "uint16_t", "UINT16", "UINT16", 16, false),
	UINT32("UINT32", "uint32", "uint32_t", "UINT32", "UINT32", 32, false),
	UINT64("UINT64", "uint64", "uint64_t", "UINT64", "UINT64", 64, false),
	FP4("FP4", "fp4", "float4_e2m1x2_t", "FP4E2M1", null, 4, true),
	FP8E4M3FN("FP8E4M3FN", "fp8e4m3fn", "float8_e4m3_t", "FP8E4M3FN", null, 8, true),
	FP8E5M2("FP8E5M2", "fp8e5m2", "float8_e5m2_t", "FP8E5M2", null, 8, true),
	FP8E8M0("FP8E8M0", "fp8e8m0", "float8_e8m0_t", "FP8E8M0", null, 8, true),
	FP16("FP16", "fp16", "half", "FLOAT16", "FLOAT16", 16, true),
	FP32("FP32", "fp32", "float", "FLOAT32", "FLOAT32", 32, true),
	FP64("FP64", "fp64", "double", "UNKNOWN", null, 64, true),
	BF16("BF16", "bfloat16", "bfloat16_t", "BFLOAT16", "BFLOAT16", 16, true),
	HF4("HF4", "hf4", "unknown", "UNKNOWN", null, 4, true),
	HF8("HF8", "hf8", "unknown", "UNKNOWN", null, 8, true),
	TASK_ID("TASK_ID", "task_id", "PTO2TaskId", "UNKNOWN", null, 64, false);

	private final String dslName;
	private final String text;
	private final String ctype;
	private final String runtimeEnum;
	private final String simplerEnum;
	private final int bits;
	private final boolean floating;

	DType(String dslName, String text, String ctype, String runtimeEnum, String simplerEnum, int bits,
			boolean floating) {
		this.dslName = dslName;
		this.text = text;
		this.ctype = ctype;
		this.runtimeEnum = runtimeEnum;
		this.simplerEnum = simplerEnum;
		this.bits = bits;
		this.floating = floating;
	}

	/** The member a DSL name denotes ("FP32"), or null. */
	public static DType named(String dslName) {
		if (dslName == null) {
			return null;
		}
		for (DType d : values()) {
			if (d.dslName.equals(dslName)) {
				return d;
			}
		}
		return null;
	}

	public String dslName() {
		return dslName;
	}

	/** pypto's {@code str(dtype)}: "fp32", "int32", "bfloat16". */
	public String text() {
		return text;
	}

	/** The C scalar type ("float", "int64_t"). */
	public String ctype() {
		return ctype;
	}

	/** The orchestration API enum, with its prefix ("DataType::FLOAT32"). */
	public String runtimeEnum() {
		return "DataType::" + runtimeEnum;
	}

	/** simpler.task_interface.DataType member name, or null when simpler has none. */
	public String simplerEnum() {
		return simplerEnum;
	}

	/** The torch dtype attribute pypto emits: str(dtype) with fp16/fp32/fp64 renamed. */
	public String torchName() {
		return switch (this) {
		case FP16 -> "float16";
		case FP32 -> "float32";
		case FP64 -> "float64";
		default -> text;
		};
	}

	public int bits() {
		return bits;
	}

	public int bytes() {
		return (bits + 7) / 8;
	}

	public boolean isFloat() {
		return floating;
	}

	public boolean isInteger() {
		return !floating && this != BOOL && this != TASK_ID;
	}
}
