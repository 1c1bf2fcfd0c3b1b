import fc from 'fast-check';

// Property tests run with a fixed seed and a bounded number of runs, so `npm test` is repeatable.
// FC_SEED=<n> explores other cases locally; a failure prints the seed and path to replay it.
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122), numRuns: 200, endOnFailure: true });
