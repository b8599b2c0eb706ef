package gpu

import "unsafe"

func sizeOf[T any](x T) uintptr { return unsafe.Sizeof(x) }
