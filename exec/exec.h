/* exec.h: the executor: a checked Module lowered into a Program and run by a Block of warps
 * (docs/architecture.md). Nothing here prints or exits: faults and warnings go to the Diag.
 * This is the room's face, which later rooms include; its declarations live by owner:
 *   memory.h   a run's memory: regions, addresses, shadow bytes, a grid on threads' record
 *   program.h  the lowered program: code, frames, call sites, mma forms, the lowering's state
 *   block.h    the CTA and its warps, the run's options, the loop that runs them
 *   family.h   the executors of the instruction families
 *   tensor.h   the tensor-core instructions and their matrices' views */
#ifndef PTXRUN_EXEC_H
#define PTXRUN_EXEC_H

#include "memory.h"
#include "program.h"
#include "block.h"
#include "family.h"
#include "tensor.h"

#endif
