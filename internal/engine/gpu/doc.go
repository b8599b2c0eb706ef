// Package gpu is the CUDA backend of ooc (built with -tags cuda): it registers the engine
// "gpu", which places the graph on the device with package gpu's memory plan (ooc/gpu) and runs
// the BFS kernels (bfs/bfs.cu, driven by package gpu) and Afforest (afforest/afforest.cu,
// driven by afforest.RunGPU). Without the cuda tag the package is empty.
package gpu
