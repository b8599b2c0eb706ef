//go:build cuda

#include "shim.h"
#include <dlfcn.h>
#include <stdio.h>

// The pointers are resolved by their ABI names (the _v2 names cuda.h maps the API to).
static struct {
	__typeof__(cuInit) *Init;
	__typeof__(cuDeviceGetCount) *DeviceGetCount;
	__typeof__(cuDeviceGet) *DeviceGet;
	__typeof__(cuDeviceGetName) *DeviceGetName;
	__typeof__(cuDeviceGetAttribute) *DeviceGetAttribute;
	__typeof__(cuDeviceTotalMem) *DeviceTotalMem;
	__typeof__(cuCtxCreate) *CtxCreate;
	__typeof__(cuCtxDestroy) *CtxDestroy;
	__typeof__(cuCtxSynchronize) *CtxSynchronize;
	__typeof__(cuCtxSetLimit) *CtxSetLimit;
	__typeof__(cuMemGetInfo) *MemGetInfo;
	__typeof__(cuMemAlloc) *MemAlloc;
	__typeof__(cuMemFree) *MemFree;
	__typeof__(cuMemcpyHtoD) *MemcpyHtoD;
	__typeof__(cuMemcpyDtoH) *MemcpyDtoH;
	__typeof__(cuMemsetD8) *MemsetD8;
	__typeof__(cuMemsetD32) *MemsetD32;
	__typeof__(cuMemHostRegister) *MemHostRegister;
	__typeof__(cuMemHostUnregister) *MemHostUnregister;
	__typeof__(cuMemHostGetDevicePointer) *MemHostGetDevicePointer;
	__typeof__(cuModuleLoadData) *ModuleLoadData;
	__typeof__(cuModuleUnload) *ModuleUnload;
	__typeof__(cuModuleGetFunction) *ModuleGetFunction;
	__typeof__(cuModuleGetGlobal) *ModuleGetGlobal;
	__typeof__(cuLaunchKernel) *LaunchKernel;
	__typeof__(cuLaunchCooperativeKernel) *LaunchCooperativeKernel;
	__typeof__(cuOccupancyMaxActiveBlocksPerMultiprocessor) *OccupancyMaxActiveBlocksPerMultiprocessor;
	__typeof__(cuGetErrorName) *GetErrorName;
	__typeof__(cuStreamCreate) *StreamCreate;
	__typeof__(cuStreamCreateWithPriority) *StreamCreateWithPriority;
	__typeof__(cuCtxGetStreamPriorityRange) *CtxGetStreamPriorityRange;
	__typeof__(cuStreamDestroy) *StreamDestroy;
	__typeof__(cuStreamSynchronize) *StreamSynchronize;
	__typeof__(cuStreamWaitEvent) *StreamWaitEvent;
	__typeof__(cuMemcpyHtoDAsync) *MemcpyHtoDAsync;
	__typeof__(cuEventCreate) *EventCreate;
	__typeof__(cuEventDestroy) *EventDestroy;
	__typeof__(cuEventRecord) *EventRecord;
	__typeof__(cuEventSynchronize) *EventSynchronize;
	__typeof__(cuEventElapsedTime) *EventElapsedTime;
} fn;

static void *lib;

#define SYM(field, name)                                                        \
	do {                                                                        \
		*(void **)(&fn.field) = dlsym(lib, name);                               \
		if (fn.field == NULL) {                                                 \
			snprintf(err, errlen, "libcuda.so.1 lacks %s", name);               \
			return 1;                                                           \
		}                                                                       \
	} while (0)

int ooc_load(char *err, size_t errlen) {
	if (lib != NULL) {
		return 0;
	}
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen libcuda.so.1 failed");
		return 1;
	}
	lib = h;
	SYM(Init, "cuInit");
	SYM(DeviceGetCount, "cuDeviceGetCount");
	SYM(DeviceGet, "cuDeviceGet");
	SYM(DeviceGetName, "cuDeviceGetName");
	SYM(DeviceGetAttribute, "cuDeviceGetAttribute");
	SYM(DeviceTotalMem, "cuDeviceTotalMem_v2");
	SYM(CtxCreate, "cuCtxCreate_v2");
	SYM(CtxDestroy, "cuCtxDestroy_v2");
	SYM(CtxSynchronize, "cuCtxSynchronize");
	SYM(CtxSetLimit, "cuCtxSetLimit");
	SYM(MemGetInfo, "cuMemGetInfo_v2");
	SYM(MemAlloc, "cuMemAlloc_v2");
	SYM(MemFree, "cuMemFree_v2");
	SYM(MemcpyHtoD, "cuMemcpyHtoD_v2");
	SYM(MemcpyDtoH, "cuMemcpyDtoH_v2");
	SYM(MemsetD8, "cuMemsetD8_v2");
	SYM(MemsetD32, "cuMemsetD32_v2");
	SYM(MemHostRegister, "cuMemHostRegister_v2");
	SYM(MemHostUnregister, "cuMemHostUnregister");
	SYM(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
	SYM(ModuleLoadData, "cuModuleLoadData");
	SYM(ModuleUnload, "cuModuleUnload");
	SYM(ModuleGetFunction, "cuModuleGetFunction");
	SYM(ModuleGetGlobal, "cuModuleGetGlobal_v2");
	SYM(LaunchKernel, "cuLaunchKernel");
	SYM(LaunchCooperativeKernel, "cuLaunchCooperativeKernel");
	SYM(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
	SYM(GetErrorName, "cuGetErrorName");
	SYM(StreamCreate, "cuStreamCreate");
	SYM(StreamCreateWithPriority, "cuStreamCreateWithPriority");
	SYM(CtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange");
	SYM(StreamDestroy, "cuStreamDestroy_v2");
	SYM(StreamSynchronize, "cuStreamSynchronize");
	SYM(StreamWaitEvent, "cuStreamWaitEvent");
	SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
	SYM(EventCreate, "cuEventCreate");
	SYM(EventDestroy, "cuEventDestroy_v2");
	SYM(EventRecord, "cuEventRecord");
	SYM(EventSynchronize, "cuEventSynchronize");
	SYM(EventElapsedTime, "cuEventElapsedTime");
	return 0;
}

CUresult ooc_cuInit(void) { return fn.Init(0); }
CUresult ooc_cuDeviceGetCount(int *n) { return fn.DeviceGetCount(n); }
CUresult ooc_cuDeviceGet(CUdevice *d, int o) { return fn.DeviceGet(d, o); }
CUresult ooc_cuDeviceGetName(char *s, int n, CUdevice d) { return fn.DeviceGetName(s, n, d); }
CUresult ooc_cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) { return fn.DeviceGetAttribute(v, a, d); }
CUresult ooc_cuDeviceTotalMem(size_t *b, CUdevice d) { return fn.DeviceTotalMem(b, d); }
CUresult ooc_cuCtxCreate(CUcontext *c, unsigned f, CUdevice d) { return fn.CtxCreate(c, f, d); }
CUresult ooc_cuCtxDestroy(CUcontext c) { return fn.CtxDestroy(c); }
CUresult ooc_cuCtxSynchronize(void) { return fn.CtxSynchronize(); }
CUresult ooc_cuCtxSetLimit(CUlimit l, size_t v) { return fn.CtxSetLimit(l, v); }
CUresult ooc_cuMemGetInfo(size_t *f, size_t *t) { return fn.MemGetInfo(f, t); }
CUresult ooc_cuMemAlloc(CUdeviceptr *p, size_t n) { return fn.MemAlloc(p, n); }
CUresult ooc_cuMemFree(CUdeviceptr p) { return fn.MemFree(p); }
CUresult ooc_cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { return fn.MemcpyHtoD(d, s, n); }
CUresult ooc_cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { return fn.MemcpyDtoH(d, s, n); }
CUresult ooc_cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n) { return fn.MemsetD8(p, v, n); }
CUresult ooc_cuMemsetD32(CUdeviceptr p, unsigned int v, size_t n) { return fn.MemsetD32(p, v, n); }
CUresult ooc_cuMemHostRegister(void *p, size_t n, unsigned f) { return fn.MemHostRegister(p, n, f); }
CUresult ooc_cuMemHostUnregister(void *p) { return fn.MemHostUnregister(p); }
CUresult ooc_cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned f) { return fn.MemHostGetDevicePointer(d, p, f); }
CUresult ooc_cuModuleLoadData(CUmodule *m, const void *img) { return fn.ModuleLoadData(m, img); }
CUresult ooc_cuModuleUnload(CUmodule m) { return fn.ModuleUnload(m); }
CUresult ooc_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *n) { return fn.ModuleGetFunction(f, m, n); }
CUresult ooc_cuModuleGetGlobal(CUdeviceptr *p, size_t *n, CUmodule m, const char *name) { return fn.ModuleGetGlobal(p, n, m, name); }

CUresult ooc_cuStreamCreate(CUstream *s, unsigned f) { return fn.StreamCreate(s, f); }
CUresult ooc_cuStreamCreateWithPriority(CUstream *s, unsigned f, int p) { return fn.StreamCreateWithPriority(s, f, p); }
CUresult ooc_cuCtxGetStreamPriorityRange(int *least, int *greatest) { return fn.CtxGetStreamPriorityRange(least, greatest); }
CUresult ooc_cuStreamDestroy(CUstream s) { return fn.StreamDestroy(s); }
CUresult ooc_cuStreamSynchronize(CUstream s) { return fn.StreamSynchronize(s); }
CUresult ooc_cuStreamWaitEvent(CUstream s, CUevent e) { return fn.StreamWaitEvent(s, e, 0); }
CUresult ooc_cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st) { return fn.MemcpyHtoDAsync(d, s, n, st); }
CUresult ooc_cuEventCreate(CUevent *e, unsigned f) { return fn.EventCreate(e, f); }
CUresult ooc_cuEventDestroy(CUevent e) { return fn.EventDestroy(e); }
CUresult ooc_cuEventRecord(CUevent e, CUstream s) { return fn.EventRecord(e, s); }
CUresult ooc_cuEventSynchronize(CUevent e) { return fn.EventSynchronize(e); }
CUresult ooc_cuEventElapsedTime(float *ms, CUevent a, CUevent b) { return fn.EventElapsedTime(ms, a, b); }

CUresult ooc_launch(CUfunction f, unsigned grid, unsigned block, unsigned shmem, CUstream stream,
                    unsigned long long *args, int nargs, int cooperative) {
	void *params[32];
	if (nargs > 32) {
		return CUDA_ERROR_INVALID_VALUE;
	}
	for (int i = 0; i < nargs; i++) {
		params[i] = &args[i];
	}
	if (cooperative) {
		return fn.LaunchCooperativeKernel(f, grid, 1, 1, block, 1, 1, shmem, stream, params);
	}
	return fn.LaunchKernel(f, grid, 1, 1, block, 1, 1, shmem, stream, params, NULL);
}

CUresult ooc_max_active_blocks(int *n, CUfunction f, int block) {
	return fn.OccupancyMaxActiveBlocksPerMultiprocessor(n, f, block, 0);
}

const char *ooc_errname(CUresult r) {
	const char *s = NULL;
	if (fn.GetErrorName == NULL || fn.GetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) {
		return "CUDA_ERROR_UNKNOWN_CODE";
	}
	return s;
}
