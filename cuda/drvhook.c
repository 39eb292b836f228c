/* drvhook.c: the driver's private calls for the runtime (ptxrunCuda*, cudrv.h's last block), where
 * the driver API has no word for what libcudart needs: for now, a line on the report stream.
 * Requires: drvstate.c. */
#include "cuda.h"

void ptxrunCudaReport(const char *text)
{
    drv_init(0);
    DrvState *s = drv_lock();
    drv_report(s, "%s", text);
    drv_unlock();
}
