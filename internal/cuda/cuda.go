//go:build cuda

// Package cuda is ooc's thin layer over the CUDA driver API.
//
// It does not use gorgonia.org/cu: that package's init function calls cuInit and exits the
// process when it fails, and it links libcuda at build time, so a binary importing it
// cannot even start on a machine without an NVIDIA driver. This package instead opens
// libcuda.so.1 with dlopen on first use (Open), so a cuda build of ooc runs the CPU engine
// anywhere and says clearly why the GPU is not available.
//
// CUDA contexts are bound to OS threads. A Device owns its context from one goroutine
// locked to its thread; all CUDA work runs through Device.Do, whose *Ctx argument carries
// every call. Every call's result is checked and turned into an error naming the call.
package cuda

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// Error is a failed driver call.
type Error struct {
	Call string
	Code int
	Name string
}

func (e *Error) Error() string {
	return fmt.Sprintf("cuda: %s: %s (%d)", e.Call, e.Name, e.Code)
}

func check(call string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &Error{Call: call, Code: int(r), Name: C.GoString(C.ooc_errname(r))}
}

var (
	loadOnce sync.Once
	loadErr  error
)

// Available loads the driver library and initialises it; the error says why no GPU can be
// used (no driver library, no device, ...).
func Available() error {
	loadOnce.Do(func() {
		var buf [512]C.char
		if C.ooc_load(&buf[0], C.size_t(len(buf))) != 0 {
			loadErr = fmt.Errorf("cuda: no NVIDIA driver: %s", C.GoString(&buf[0]))
			return
		}
		if err := check("cuInit", C.ooc_cuInit()); err != nil {
			loadErr = err
			return
		}
		var n C.int
		if err := check("cuDeviceGetCount", C.ooc_cuDeviceGetCount(&n)); err != nil {
			loadErr = err
			return
		}
		if n == 0 {
			loadErr = fmt.Errorf("cuda: the driver reports no CUDA device")
		}
	})
	return loadErr
}

// DevPtr is a device address.
type DevPtr uint64

// Buffer is one tracked device allocation.
type Buffer struct {
	Ptr   DevPtr
	Bytes int64
	Name  string
}

// Device owns a CUDA context on one device and the budget of device memory ooc may take.
type Device struct {
	Name     string
	SMs      int
	CC       [2]int // compute capability
	Coop     bool   // the device takes cooperative launches (LaunchCooperative)
	Total    int64  // device memory
	budget   int64
	used     int64
	peak     int64
	free0    int64 // free device memory right after the context was created
	live     map[DevPtr]*Buffer
	work     chan func()
	done     chan struct{}
	ctx      C.CUcontext
	dev      C.CUdevice
	closeErr error
}

// Open creates a context on device ordinal and starts its owner goroutine. budget caps
// the device memory allocated through Alloc; <= 0 means free memory minus margin.
func Open(ordinal int, budget, margin int64) (*Device, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	d := &Device{live: map[DevPtr]*Buffer{}, work: make(chan func()), done: make(chan struct{})}
	started := make(chan error, 1)
	go d.loop(ordinal, started)
	if err := <-started; err != nil {
		return nil, err
	}
	var free, total C.size_t
	err := d.Do(func(c *Ctx) error {
		return check("cuMemGetInfo", C.ooc_cuMemGetInfo(&free, &total))
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	d.free0 = int64(free)
	avail := int64(free) - margin
	if budget <= 0 {
		budget = avail
	}
	if budget > avail {
		d.Close()
		return nil, fmt.Errorf("cuda: --vram %s exceeds the device's free memory %s minus a margin of %s",
			bytesize.Format(budget), bytesize.Format(int64(free)), bytesize.Format(margin))
	}
	d.budget = budget
	return d, nil
}

func (d *Device) loop(ordinal int, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := func() error {
		if err := check("cuDeviceGet", C.ooc_cuDeviceGet(&d.dev, C.int(ordinal))); err != nil {
			return err
		}
		var name [256]C.char
		if err := check("cuDeviceGetName", C.ooc_cuDeviceGetName(&name[0], 256, d.dev)); err != nil {
			return err
		}
		d.Name = C.GoString(&name[0])
		for i, a := range []C.CUdevice_attribute{C.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
			C.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH} {
			var v C.int
			if err := check("cuDeviceGetAttribute", C.ooc_cuDeviceGetAttribute(&v, a, d.dev)); err != nil {
				return err
			}
			switch i {
			case 0:
				d.SMs = int(v)
			case 3:
				d.Coop = v != 0
			default:
				d.CC[i-1] = int(v)
			}
		}
		var tot C.size_t
		if err := check("cuDeviceTotalMem", C.ooc_cuDeviceTotalMem(&tot, d.dev)); err != nil {
			return err
		}
		d.Total = int64(tot)
		// spin while waiting: a BFS level waits on the device several times, and a blocking
		// wait adds tens of microseconds to each
		if err := check("cuCtxCreate", C.ooc_cuCtxCreate(&d.ctx, C.CU_CTX_SCHED_SPIN|C.CU_CTX_MAP_HOST, d.dev)); err != nil {
			return err
		}
		// The driver reserves local memory for the stack limit on every thread the device
		// can hold (1 KiB each by default: about 260 MiB on an H200), outside --vram. No
		// kernel here calls through a stack; their fixed frames, which the driver sizes at
		// launch, are all they need.
		if err := check("cuCtxSetLimit", C.ooc_cuCtxSetLimit(C.CU_LIMIT_STACK_SIZE, 0)); err != nil {
			C.ooc_cuCtxDestroy(d.ctx)
			return err
		}
		return nil
	}()
	started <- err
	if err != nil {
		close(d.done)
		return
	}
	for f := range d.work {
		f()
	}
	d.closeErr = check("cuCtxDestroy", C.ooc_cuCtxDestroy(d.ctx))
	close(d.done)
}

// Ctx carries the driver calls; it is valid only inside the function given to Do.
type Ctx struct {
	d  *Device
	on *Stream // the stream Launch uses (OnStream); nil: the legacy default stream
}

// Do runs f on the context's thread and returns its error.
func (d *Device) Do(f func(c *Ctx) error) error {
	var err error
	ran := make(chan struct{})
	d.work <- func() {
		defer close(ran)
		err = f(&Ctx{d: d})
	}
	<-ran
	return err
}

// Close frees what is still allocated and destroys the context.
func (d *Device) Close() error {
	if d.work == nil {
		return nil
	}
	select {
	case <-d.done: // the context was never created
		return nil
	default:
	}
	err := d.Do(func(c *Ctx) error { return c.FreeAll() })
	close(d.work)
	<-d.done
	d.work = nil
	if err != nil {
		return err
	}
	return d.closeErr
}

// Budget, Used and Peak describe the allocator.
func (d *Device) Budget() int64 { return d.budget }
func (d *Device) Used() int64   { return d.used }
func (d *Device) Peak() int64   { return d.peak }

// DriverUsed is how much device memory the driver reports taken since the context was
// created: ooc's allocations plus what the driver adds for them (page rounding, loaded
// modules, kernel stacks). Tests compare it with the budget.
func (d *Device) DriverUsed() (int64, error) {
	var free, total C.size_t
	err := d.Do(func(c *Ctx) error {
		return check("cuMemGetInfo", C.ooc_cuMemGetInfo(&free, &total))
	})
	return d.free0 - int64(free), err
}

// Allocations lists the live allocations, largest first, for -v.
func (d *Device) Allocations() string {
	bs := make([]*Buffer, 0, len(d.live))
	for _, b := range d.live {
		bs = append(bs, b)
	}
	sort.Slice(bs, func(i, j int) bool {
		return bs[i].Bytes > bs[j].Bytes || bs[i].Bytes == bs[j].Bytes && bs[i].Name < bs[j].Name
	})
	var sb strings.Builder
	for _, b := range bs {
		fmt.Fprintf(&sb, "  %-24s %s\n", b.Name, bytesize.Format(b.Bytes))
	}
	return sb.String()
}

// ErrBudget is wrapped by Alloc's error when the budget would be exceeded.
var ErrBudget = fmt.Errorf("device memory budget exceeded")

// Alloc allocates n bytes of device memory, refusing anything beyond the budget.
func (c *Ctx) Alloc(name string, n int64) (*Buffer, error) {
	d := c.d
	if n <= 0 {
		n = 4
	}
	n = (n + 255) &^ 255 // what the driver rounds to at least; counted against the budget
	if d.used+n > d.budget {
		return nil, fmt.Errorf("cuda: allocating %s for %s with %s of %s in use: %w",
			bytesize.Format(n), name, bytesize.Format(d.used), bytesize.Format(d.budget), ErrBudget)
	}
	var p C.CUdeviceptr
	if err := check(fmt.Sprintf("cuMemAlloc(%s for %s)", bytesize.Format(n), name), C.ooc_cuMemAlloc(&p, C.size_t(n))); err != nil {
		return nil, err
	}
	b := &Buffer{Ptr: DevPtr(p), Bytes: n, Name: name}
	d.live[b.Ptr] = b
	d.used += n
	d.peak = max(d.peak, d.used)
	return b, nil
}

// Free releases b; freeing nil does nothing.
func (c *Ctx) Free(b *Buffer) error {
	if b == nil {
		return nil
	}
	d := c.d
	if _, ok := d.live[b.Ptr]; !ok {
		return nil
	}
	delete(d.live, b.Ptr)
	d.used -= b.Bytes
	return check("cuMemFree("+b.Name+")", C.ooc_cuMemFree(C.CUdeviceptr(b.Ptr)))
}

// FreeAll releases every live allocation.
func (c *Ctx) FreeAll() error {
	var first error
	for _, b := range c.d.live {
		if err := c.Free(b); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// HtoD copies host bytes to device address dst.
func (c *Ctx) HtoD(dst DevPtr, src unsafe.Pointer, n int64) error {
	if n == 0 {
		return nil
	}
	return check("cuMemcpyHtoD", C.ooc_cuMemcpyHtoD(C.CUdeviceptr(dst), src, C.size_t(n)))
}

// DtoH copies n device bytes at src to host memory.
func (c *Ctx) DtoH(dst unsafe.Pointer, src DevPtr, n int64) error {
	if n == 0 {
		return nil
	}
	return check("cuMemcpyDtoH", C.ooc_cuMemcpyDtoH(dst, C.CUdeviceptr(src), C.size_t(n)))
}

// Memset32 sets n uint32 words at p to v.
func (c *Ctx) Memset32(p DevPtr, v uint32, n int64) error {
	if n == 0 {
		return nil
	}
	return check("cuMemsetD32", C.ooc_cuMemsetD32(C.CUdeviceptr(p), C.uint(v), C.size_t(n)))
}

// Sync waits for all launched work and reports asynchronous errors.
func (c *Ctx) Sync() error { return check("cuCtxSynchronize", C.ooc_cuCtxSynchronize()) }

// Pinned is host memory registered with the device and readable from kernels.
type Pinned struct {
	host unsafe.Pointer
	Dev  DevPtr
	n    int64
}

// Register pins b (which must stay mapped until Unregister) read-only and returns its
// device alias. b should come from a read-only shared mapping (docs/design-link-policy.md: private or
// writable file mappings fail or register slowly).
func (c *Ctx) Register(b []byte) (*Pinned, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("cuda: registering an empty range")
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	// a file mapping covers whole pages; registering the last page whole keeps the kernels'
	// aligned 8-byte loads at the end of a section inside the registered range
	n := int64(len(b))
	if uintptr(p)&4095 == 0 {
		n = (n + 4095) &^ 4095
	}
	flags := C.uint(C.CU_MEMHOSTREGISTER_DEVICEMAP | C.CU_MEMHOSTREGISTER_READ_ONLY)
	if err := check(fmt.Sprintf("cuMemHostRegister(%s)", bytesize.Format(int64(len(b)))), C.ooc_cuMemHostRegister(p, C.size_t(n), flags)); err != nil {
		return nil, err
	}
	var dp C.CUdeviceptr
	if err := check("cuMemHostGetDevicePointer", C.ooc_cuMemHostGetDevicePointer(&dp, p, 0)); err != nil {
		C.ooc_cuMemHostUnregister(p)
		return nil, err
	}
	return &Pinned{host: p, Dev: DevPtr(dp), n: n}, nil
}

// Pin page-locks b (Go or anonymous memory that stays allocated until Unregister) so that
// HtoD and DtoH copies to and from it run at the link's full rate; the device may write it.
func (c *Ctx) Pin(b []byte) (*Pinned, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("cuda: pinning an empty range")
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if err := check(fmt.Sprintf("cuMemHostRegister(%s)", bytesize.Format(int64(len(b)))), C.ooc_cuMemHostRegister(p, C.size_t(len(b)), 0)); err != nil {
		return nil, err
	}
	return &Pinned{host: p, n: int64(len(b))}, nil
}

// Unregister unpins p.
func (c *Ctx) Unregister(p *Pinned) error {
	if p == nil || p.host == nil {
		return nil
	}
	err := check("cuMemHostUnregister", C.ooc_cuMemHostUnregister(p.host))
	p.host = nil
	return err
}

// Module is a loaded PTX or cubin image.
type Module struct {
	m     C.CUmodule
	funcs map[string]C.CUfunction
}

// Load JIT-compiles (PTX) or loads (cubin/fatbin) an image; it must be NUL-terminated PTX or a binary image.
func (c *Ctx) Load(name string, image []byte) (*Module, error) {
	img := C.CBytes(append(append([]byte(nil), image...), 0))
	defer C.free(img)
	var m C.CUmodule
	if err := check("cuModuleLoadData("+name+")", C.ooc_cuModuleLoadData(&m, img)); err != nil {
		return nil, err
	}
	return &Module{m: m, funcs: map[string]C.CUfunction{}}, nil
}

// Global is the device address and size of the module-scope variable name of m
// (a __device__ or __constant__ variable), which HtoD and DtoH then write and read.
func (c *Ctx) Global(m *Module, name string) (DevPtr, int64, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var p C.CUdeviceptr
	var n C.size_t
	if err := check("cuModuleGetGlobal("+name+")", C.ooc_cuModuleGetGlobal(&p, &n, m.m, cname)); err != nil {
		return 0, 0, err
	}
	return DevPtr(p), int64(n), nil
}

// Unload releases m.
func (c *Ctx) Unload(m *Module) error {
	if m == nil {
		return nil
	}
	return check("cuModuleUnload", C.ooc_cuModuleUnload(m.m))
}

// Launch runs kernel name of m on grid blocks of block threads, in the legacy default
// stream or, within OnStream, in its stream. Every argument is passed in an 8-byte slot:
// device pointers and 64-bit values as they are, 32-bit kernel parameters from the low
// half (little-endian).
func (c *Ctx) Launch(m *Module, name string, grid, block int, args ...uint64) error {
	return c.LaunchOn(c.on, m, name, grid, block, args...)
}

// OnStream runs f with Launch putting kernels in stream s (nil: the legacy default
// stream), so kernelgen's wrappers, which call Launch, launch there.
func (c *Ctx) OnStream(s *Stream, f func() error) error {
	old := c.on
	c.on = s
	defer func() { c.on = old }()
	return f()
}

// LaunchOn is Launch in stream s (nil: the legacy default stream, which every other call of
// this package uses and which waits for and blocks no stream made by NewStream).
func (c *Ctx) LaunchOn(s *Stream, m *Module, name string, grid, block int, args ...uint64) error {
	return c.launch(s, m, name, grid, block, false, args)
}

// LaunchCooperative is Launch as a cooperative launch: all grid blocks are resident at
// once, so they may wait for each other (a grid-wide barrier), and the driver refuses a
// grid larger than MaxActiveBlocks times the multiprocessors. Only for a device whose
// Coop holds.
func (c *Ctx) LaunchCooperative(m *Module, name string, grid, block int, args ...uint64) error {
	return c.launch(nil, m, name, grid, block, true, args)
}

// MaxActiveBlocks is how many blocks of block threads of kernel name one multiprocessor
// holds at once.
func (c *Ctx) MaxActiveBlocks(m *Module, name string, block int) (int, error) {
	f, err := m.function(name)
	if err != nil {
		return 0, err
	}
	var n C.int
	if err := check("cuOccupancyMaxActiveBlocksPerMultiprocessor("+name+")", C.ooc_max_active_blocks(&n, f, C.int(block))); err != nil {
		return 0, err
	}
	return int(n), nil
}

// function returns m's kernel name, looked up once.
func (m *Module) function(name string) (C.CUfunction, error) {
	f, ok := m.funcs[name]
	if !ok {
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		if err := check("cuModuleGetFunction("+name+")", C.ooc_cuModuleGetFunction(&f, m.m, cname)); err != nil {
			return f, err
		}
		m.funcs[name] = f
	}
	return f, nil
}

func (c *Ctx) launch(s *Stream, m *Module, name string, grid, block int, coop bool, args []uint64) error {
	f, err := m.function(name)
	if err != nil {
		return err
	}
	if grid <= 0 {
		return nil
	}
	if len(args) == 0 {
		args = []uint64{0}
	}
	if faultKernel != "" && (faultKernel == name || faultKernel == "any") {
		args = c.faulty(args)
	}
	a := (*C.ulonglong)(C.malloc(C.size_t(8 * len(args))))
	defer C.free(unsafe.Pointer(a))
	copy(unsafe.Slice((*uint64)(unsafe.Pointer(a)), len(args)), args)
	call, cooperative := "cuLaunchKernel", C.int(0)
	if coop {
		call, cooperative = "cuLaunchCooperativeKernel", 1
	}
	return check(call+"("+name+")", C.ooc_launch(f, C.uint(grid), C.uint(block), 0, s.handle(), a, C.int(len(args)), cooperative))
}

// faultKernel names the kernel (or "any") whose launches get a fault injected (faulty):
// OOC_TEST_CUDA_FAULT, honoured only by test binaries, so that tests can see how a
// kernel's fault surfaces through the commands (exit 1 naming the CUDA error).
var faultKernel = func() string {
	if !testing.Testing() {
		return ""
	}
	return os.Getenv("OOC_TEST_CUDA_FAULT")
}()

// faultAddr is where faulty points a kernel's buffers: in the null page, which neither
// the device nor the host maps, and aligned for any load.
const faultAddr = 256

// faulty returns args with every argument that points into a live device allocation
// replaced by faultAddr: the kernel's first access to one of them faults
// (CUDA_ERROR_ILLEGAL_ADDRESS), as a kernel indexing past its buffers would.
func (c *Ctx) faulty(args []uint64) []uint64 {
	out := slices.Clone(args)
	for i, v := range out {
		for p, b := range c.d.live {
			if v >= uint64(p) && v < uint64(p)+uint64(b.Bytes) {
				out[i] = faultAddr
				break
			}
		}
	}
	return out
}

// Stream is a CUDA stream made by NewStream.
type Stream struct{ s C.CUstream }

func (s *Stream) handle() C.CUstream {
	if s == nil {
		return nil
	}
	return s.s
}

// NewStream creates a non-blocking stream: its work overlaps the default stream's, so an
// asynchronous copy on it runs while kernels run on the default stream; order the two with
// events (Record, Wait).
func (c *Ctx) NewStream() (*Stream, error) {
	var s C.CUstream
	if err := check("cuStreamCreate", C.ooc_cuStreamCreate(&s, C.CU_STREAM_NON_BLOCKING)); err != nil {
		return nil, err
	}
	return &Stream{s: s}, nil
}

// NewUrgentStream is NewStream with the greatest priority the device has: the blocks of
// its kernels are scheduled before those of waiting launches in other streams.
func (c *Ctx) NewUrgentStream() (*Stream, error) {
	var least, greatest C.int
	if err := check("cuCtxGetStreamPriorityRange", C.ooc_cuCtxGetStreamPriorityRange(&least, &greatest)); err != nil {
		return nil, err
	}
	var s C.CUstream
	if err := check("cuStreamCreateWithPriority", C.ooc_cuStreamCreateWithPriority(&s, C.CU_STREAM_NON_BLOCKING, greatest)); err != nil {
		return nil, err
	}
	return &Stream{s: s}, nil
}

// DestroyStream releases s once its work is done; nil does nothing.
func (c *Ctx) DestroyStream(s *Stream) error {
	if s == nil || s.s == nil {
		return nil
	}
	err := check("cuStreamDestroy", C.ooc_cuStreamDestroy(s.s))
	s.s = nil
	return err
}

// StreamSync waits for the work queued in s (nil: the default stream).
func (c *Ctx) StreamSync(s *Stream) error {
	return check("cuStreamSynchronize", C.ooc_cuStreamSynchronize(s.handle()))
}

// Event marks a point in a stream.
type Event struct{ e C.CUevent }

// NewEvent creates an event; timing events can be passed to Elapsed, others are cheaper.
func (c *Ctx) NewEvent(timing bool) (*Event, error) {
	var e C.CUevent
	flags := C.uint(C.CU_EVENT_DISABLE_TIMING)
	if timing {
		flags = C.CU_EVENT_DEFAULT
	}
	if err := check("cuEventCreate", C.ooc_cuEventCreate(&e, flags)); err != nil {
		return nil, err
	}
	return &Event{e: e}, nil
}

// DestroyEvent releases e; nil does nothing.
func (c *Ctx) DestroyEvent(e *Event) error {
	if e == nil || e.e == nil {
		return nil
	}
	err := check("cuEventDestroy", C.ooc_cuEventDestroy(e.e))
	e.e = nil
	return err
}

// Record marks e at the current end of stream s (nil: the default stream).
func (c *Ctx) Record(e *Event, s *Stream) error {
	return check("cuEventRecord", C.ooc_cuEventRecord(e.e, s.handle()))
}

// Wait makes later work in stream s (nil: the default stream) wait for e's last Record.
func (c *Ctx) Wait(s *Stream, e *Event) error {
	return check("cuStreamWaitEvent", C.ooc_cuStreamWaitEvent(s.handle(), e.e))
}

// EventSync blocks the host until e's last Record has been reached.
func (c *Ctx) EventSync(e *Event) error {
	return check("cuEventSynchronize", C.ooc_cuEventSynchronize(e.e))
}

// Elapsed is the time in seconds between two recorded timing events.
func (c *Ctx) Elapsed(from, to *Event) (float64, error) {
	var ms C.float
	if err := check("cuEventElapsedTime", C.ooc_cuEventElapsedTime(&ms, from.e, to.e)); err != nil {
		return 0, err
	}
	return float64(ms) / 1e3, nil
}

// HtoDAsync queues a copy of n host bytes at src to dst in stream s. src must be pinned
// (Register) for the copy to be asynchronous and must stay mapped until it completes.
func (c *Ctx) HtoDAsync(dst DevPtr, src unsafe.Pointer, n int64, s *Stream) error {
	if n == 0 {
		return nil
	}
	return check(fmt.Sprintf("cuMemcpyHtoDAsync(%s)", bytesize.Format(n)), C.ooc_cuMemcpyHtoDAsync(C.CUdeviceptr(dst), src, C.size_t(n), s.handle()))
}
