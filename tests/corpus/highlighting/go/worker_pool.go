package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"
)

// Job is one unit of work for the pool.
type Job struct {
	ID      int
	Payload []byte
	Retries uint8
}

type Result struct {
	JobID int
	Err   error
	Took  time.Duration
}

var ErrTimeout = errors.New("job timed out")

const maxRetries = 3

func worker(ctx context.Context, id int, jobs <-chan Job, results chan<- Result, wg *sync.WaitGroup) {
	defer wg.Done()
	for job := range jobs {
		start := time.Now()
		err := process(ctx, job)
		if errors.Is(err, ErrTimeout) && job.Retries < maxRetries {
			job.Retries++
			log.Printf("worker %d: retrying job %d (%d/%d)", id, job.ID, job.Retries, maxRetries)
			continue
		}
		results <- Result{JobID: job.ID, Err: err, Took: time.Since(start)}
	}
}

func process(ctx context.Context, job Job) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(len(job.Payload)) * time.Millisecond):
		if len(job.Payload) > 1<<20 {
			return fmt.Errorf("job %d: payload too large: %w", job.ID, ErrTimeout)
		}
		return nil
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	jobs := make(chan Job, 100)
	results := make(chan Result, 100)
	var wg sync.WaitGroup
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go worker(ctx, i, jobs, results, &wg)
	}
	for i := 0; i < 20; i++ {
		jobs <- Job{ID: i, Payload: make([]byte, i*64)}
	}
	close(jobs)
	go func() { wg.Wait(); close(results) }()
	total := 0.0
	for r := range results {
		total += r.Took.Seconds()
		if r.Err != nil {
			fmt.Println("failed:", r.JobID, r.Err)
		}
	}
	fmt.Printf("done in %.2fs, ratio %v\n", total, 'x' == rune(0x78))
}
