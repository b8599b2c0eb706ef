// Shim over the CUDA driver API, loaded at run time with dlopen so that a cuda build of ooc
// starts (and runs the CPU engine) on a machine without an NVIDIA driver.
#ifndef OOC_CUDA_SHIM_H
#define OOC_CUDA_SHIM_H
#include <stddef.h>
#include <cuda.h>

// ooc_load opens libcuda.so.1 and resolves every entry point; it returns 0 on success and
// otherwise writes a message into err.
int ooc_load(char *err, size_t errlen);

CUresult ooc_cuInit(void);
CUresult ooc_cuDeviceGetCount(int *n);
CUresult ooc_cuDeviceGet(CUdevice *d, int ordinal);
CUresult ooc_cuDeviceGetName(char *name, int len, CUdevice d);
CUresult ooc_cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d);
CUresult ooc_cuDeviceTotalMem(size_t *b, CUdevice d);
CUresult ooc_cuCtxCreate(CUcontext *c, unsigned flags, CUdevice d);
CUresult ooc_cuCtxDestroy(CUcontext c);
CUresult ooc_cuCtxSynchronize(void);
CUresult ooc_cuCtxSetLimit(CUlimit l, size_t v);
CUresult ooc_cuMemGetInfo(size_t *free, size_t *total);
CUresult ooc_cuMemAlloc(CUdeviceptr *p, size_t n);
CUresult ooc_cuMemFree(CUdeviceptr p);
CUresult ooc_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n);
CUresult ooc_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n);
CUresult ooc_cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n);
CUresult ooc_cuMemsetD32(CUdeviceptr p, unsigned int v, size_t n);
CUresult ooc_cuMemHostRegister(void *p, size_t n, unsigned flags);
CUresult ooc_cuMemHostUnregister(void *p);
CUresult ooc_cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned flags);
CUresult ooc_cuModuleLoadData(CUmodule *m, const void *image);
CUresult ooc_cuModuleUnload(CUmodule m);
CUresult ooc_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name);
CUresult ooc_cuModuleGetGlobal(CUdeviceptr *p, size_t *n, CUmodule m, const char *name);
CUresult ooc_cuStreamCreate(CUstream *s, unsigned flags);
CUresult ooc_cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority);
CUresult ooc_cuCtxGetStreamPriorityRange(int *least, int *greatest);
CUresult ooc_cuStreamDestroy(CUstream s);
CUresult ooc_cuStreamSynchronize(CUstream s);
CUresult ooc_cuStreamWaitEvent(CUstream s, CUevent e);
CUresult ooc_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s);
CUresult ooc_cuEventCreate(CUevent *e, unsigned flags);
CUresult ooc_cuEventDestroy(CUevent e);
CUresult ooc_cuEventRecord(CUevent e, CUstream s);
CUresult ooc_cuEventSynchronize(CUevent e);
CUresult ooc_cuEventElapsedTime(float *ms, CUevent a, CUevent b);
// ooc_launch launches f on a 1-D grid in stream (NULL: the legacy default stream); args
// holds nargs parameters, each in 8 bytes (the driver copies the parameter's own size from
// the start of each slot, little-endian). With cooperative the launch is cooperative: every
// block of the grid is resident at once (the driver refuses a larger grid), so blocks may
// wait for each other.
CUresult ooc_launch(CUfunction f, unsigned grid, unsigned block, unsigned shmem, CUstream stream,
                    unsigned long long *args, int nargs, int cooperative);
// ooc_max_active_blocks is how many blocks of block threads of f one multiprocessor holds.
CUresult ooc_max_active_blocks(int *n, CUfunction f, int block);
const char *ooc_errname(CUresult r);
#endif
