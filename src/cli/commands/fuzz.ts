import type { Argv, CommandModule, Options } from 'yargs';
import { MockvideoError, errorText } from '../../errors.js';
import { EDGE_CLASSES } from '../../fuzz/classes.js';
import { INTEGER_WIDTHS, type IntegerWidth } from '../../fuzz/options.js';
import type { FuzzAnswers } from '../../routes/fuzz.js';
import { COMMAND_HEADINGS } from '../command-headings.js';
import type { ArgsOf, BuiltArgs } from '../options.js';

/** The fuzz options of `serve`: `--fuzz [SEED]`, `--fuzz-case CASE`, `--fuzz-beyond-observed`, `--fuzz-integers`, `--fuzz-classes`, `--fuzz-exclude`, `--fuzz-per-device`. */
export const fuzzOptions = {
  fuzz: {
    type: 'string',
    describe:
      'Answer every operation with a generated, contract-valid answer from this seed (random when none is given; printed at start)',
  },
  'fuzz-case': {
    type: 'string',
    describe:
      'Answer this case (from an x-mockvideo-fuzz header, e.g. 42:meta/plugin:3) every time for its operation; implies --fuzz',
  },
  'fuzz-beyond-observed': {
    type: 'boolean',
    describe:
      'With --fuzz: also vary what the seed only observed (diversion arrays and their order, type, placement, ref, apk_url/cp_link, vendor_market_detail)',
  },
  'fuzz-integers': {
    type: 'number',
    choices: INTEGER_WIDTHS,
    describe:
      "With --fuzz: the width in bits of the client's int, whose bounds integer fields draw as extremes (default 32; Unix times are 64-bit at every width)",
  },
  'fuzz-classes': {
    type: 'string',
    describe: `With --fuzz: draw only these edge classes (comma-separated): ${EDGE_CLASSES.map((c) => c.name).join(', ')}`,
  },
  'fuzz-exclude': {
    type: 'string',
    describe: 'With --fuzz: draw none of these edge classes (comma-separated, as --fuzz-classes names them)',
  },
  'fuzz-per-device': {
    type: 'boolean',
    describe:
      "With --fuzz: mix the device into each case (the case names the device's hash), so fresh devices draw different answers",
  },
} satisfies Record<string, Options>;

/** The fuzz flags of `serve`. */
export type FuzzArgs = ArgsOf<typeof fuzzOptions>;

/** Runs `read`, throwing its error as a usage error (`MV_USAGE`), after `flag: ` when given. */
function asUsage<T>(flag: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new MockvideoError('MV_USAGE', `${flag}${errorText(error)}`);
  }
}

/**
 * The generated answers `serve` answers with, from its fuzz flags, or `undefined` without them.
 * Loads the generator (and fast-check) only then. `seed` is the run's seed, for the start line.
 * @throws MockvideoError (`MV_USAGE`) naming the flag for a seed or case that is none.
 */
export async function fuzzAnswersOf(
  args: FuzzArgs & { replay?: string },
): Promise<{ fuzz: FuzzAnswers; seed: number } | undefined> {
  const beyondObserved = args['fuzz-beyond-observed'] ?? false;
  const fuzzing = args.fuzz !== undefined || args['fuzz-case'] !== undefined;
  if (fuzzing && args.replay !== undefined)
    throw new MockvideoError(
      'MV_USAGE',
      '--fuzz and --fuzz-case answer every operation with a generated answer, --replay with recordings: pick one.',
    );
  const needing = RUN_FLAGS.find((flag) => args[flag] !== undefined && args[flag] !== false);
  if (!fuzzing && needing)
    throw new MockvideoError(
      'MV_USAGE',
      `--${needing} needs --fuzz [SEED]: add it, e.g. "mockvideo serve --fuzz 42 --${needing}${args[needing] === true ? '' : ` ${String(args[needing])}`}".`,
    );
  if (!fuzzing) return undefined;
  const [{ fuzzAnswer, parseCase, parseSeed, randomSeed }, { FuzzAnswers }] = await Promise.all([
    import('../../fuzz/case.js'),
    import('../../routes/fuzz.js'),
  ]);
  const text = args['fuzz-case'];
  const fixedCase = text === undefined ? undefined : asUsage('--fuzz-case: ', () => parseCase(text));
  const seed = args.fuzz ? asUsage('--fuzz: ', () => parseSeed(args.fuzz!)) : (fixedCase?.seed ?? randomSeed());
  const list = (flag: 'fuzz-classes' | 'fuzz-exclude') => args[flag]?.split(',');
  const options = {
    seed,
    beyondObserved,
    integers: args['fuzz-integers'] as IntegerWidth | undefined,
    classes: list('fuzz-classes'),
    exclude: list('fuzz-exclude'),
    perDevice: args['fuzz-per-device'] ?? false,
    fixedCase,
    generate: fuzzAnswer,
  };
  const flag = args['fuzz-classes'] !== undefined ? '--fuzz-classes: ' : '--fuzz-exclude: ';
  return { fuzz: asUsage(flag, () => new FuzzAnswers(options)), seed };
}

/** The flags that shape a fuzz run and need `--fuzz`. */
const RUN_FLAGS = ['fuzz-beyond-observed', 'fuzz-integers', 'fuzz-classes', 'fuzz-exclude', 'fuzz-per-device'] as const;

const builder = (yargs: Argv) =>
  yargs
    .positional('action', { type: 'string', choices: ['show'] as const, describe: 'What to do with the case' })
    .positional('case', {
      type: 'string',
      demandOption: true,
      describe:
        'A case, as the x-mockvideo-fuzz header sends it: <seed>:<operation>:<call>, then the options of the run (:beyond, :int53, :device=<hash>, :off=<classes>)',
    })
    .example(
      '$0 fuzz show 42:meta/plugin:3',
      'Print the answer serve --fuzz 42 sent for the third meta/plugin call of a device',
    )
    .example('$0 fuzz show 42:meta/plugin:3 | jq .data', 'Look at its data');

/**
 * `mockvideo fuzz show <case>`: prints the answer of a case (the body `serve --fuzz` sent with
 * `x-mockvideo-fuzz: <case>`), byte for byte, then nothing else. Exit code 2 for a case that is none.
 */
export const fuzzCommand: CommandModule<object, BuiltArgs<typeof builder>> = {
  ...COMMAND_HEADINGS.fuzz,
  builder,
  handler: async (args) => {
    const { fuzzAnswer } = await import('../../fuzz/case.js');
    process.stdout.write(`${asUsage('', () => fuzzAnswer(args.case)).text}\n`);
  },
};
