#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    // External tensors
    const ChipTensor& ext_a = orch_args.tensor(0).ref();
    const ChipTensor& ext_b = orch_args.tensor(1).ref();
    const ChipTensor& ext_f = orch_args.tensor(2).ref();

    PTO2_SCOPE() {
        uint32_t c_ci_shapes[2] = {16, 16};
        TensorCreateInfo c_ci(c_ci_shapes, 2, DataType::FLOAT32);
        uint32_t d_ci_shapes[2] = {16, 16};
        TensorCreateInfo d_ci(d_ci_shapes, 2, DataType::FLOAT32);
        uint32_t e_ci_shapes[2] = {16, 16};
        TensorCreateInfo e_ci(e_ci_shapes, 2, DataType::FLOAT32);
        uint32_t g_ci_shapes[2] = {16, 16};
        TensorCreateInfo g_ci(g_ci_shapes, 2, DataType::FLOAT32);
        TaskOutputTensors alloc_0 = alloc_tensors(c_ci, d_ci, e_ci, g_ci);
        const ChipTensor& c = alloc_0.get_ref(0);
        const ChipTensor& d = alloc_0.get_ref(1);
        const ChipTensor& e = alloc_0.get_ref(2);
        const ChipTensor& g = alloc_0.get_ref(3);

        // Task 0: kernel_add
        CoreTaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_input(ext_b);
        params_t0.add_output(c);
        rt_submit_aiv_task(0, params_t0);

        // Task 1: kernel_add_scalar
        CoreTaskArgs params_t1;
        params_t1.add_input(c);
        params_t1.add_output(d);
        params_t1.add_scalar(to_u64(1.000000f));
        rt_submit_aiv_task(1, params_t1);

        // Task 2: kernel_add_scalar
        CoreTaskArgs params_t2;
        params_t2.add_input(c);
        params_t2.add_output(e);
        params_t2.add_scalar(to_u64(2.000000f));
        rt_submit_aiv_task(1, params_t2);

        // Task 3: kernel_mul
        CoreTaskArgs params_t3;
        params_t3.add_input(d);
        params_t3.add_input(e);
        params_t3.add_output(g);
        rt_submit_aiv_task(2, params_t3);

        // Task 4: kernel_add
        CoreTaskArgs params_t4;
        params_t4.add_input(g);
        params_t4.add_input(c);
        params_t4.add_output(ext_f);
        rt_submit_aiv_task(0, params_t4);
    }
}

}  // extern "C"
