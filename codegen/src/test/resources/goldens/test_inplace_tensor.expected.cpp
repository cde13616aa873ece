#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 7,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    // External tensors
    const ChipTensor& ext_mij = orch_args.tensor(0).ref();
    const ChipTensor& ext_lij = orch_args.tensor(1).ref();
    const ChipTensor& ext_oi_new = orch_args.tensor(2).ref();
    const ChipTensor& ext_mi = orch_args.tensor(3).ref();
    const ChipTensor& ext_li = orch_args.tensor(4).ref();
    const ChipTensor& ext_oi = orch_args.tensor(5).ref();
    const ChipTensor& ext_dst = orch_args.tensor(6).ref();

    PTO2_SCOPE() {

        // Task 0: online_update
        CoreTaskArgs params_t0;
        params_t0.add_input(ext_mij);
        params_t0.add_input(ext_lij);
        params_t0.add_input(ext_oi_new);
        params_t0.add_inout(ext_mi);
        params_t0.add_inout(ext_li);
        params_t0.add_inout(ext_oi);
        params_t0.add_output(ext_dst);
        rt_submit_aiv_task(0, params_t0);
    }
}

}  // extern "C"
