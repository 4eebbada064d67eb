import { FerryError } from '../errors/index.js';

/**
 * The pipeline's state was confirmed by another platform than the one configured now (another
 * FERRY_BASE_URL, same FERRY_PREFIX): planned against it, a run would send the new platform nothing
 * for what did not change. Stops before planning, exit code 2 (configuration), with the ways out.
 */
export class StateOtherPlatformError extends FerryError<'FERRY_STATE_OTHER_PLATFORM'> {
  readonly code = 'FERRY_STATE_OTHER_PLATFORM';
  override readonly exitCode = 2;
  constructor(pipeline: string, statePlatform: string, platform: string) {
    super(
      `The state of pipeline "${pipeline}" belongs to the platform at ${statePlatform} (what Ferry ` +
        `delivered there), but the platform configured now is ${platform} (interface.baseUrl, ` +
        `FERRY_BASE_URL): planned against that state, a run would send it nothing for what did ` +
        `not change. Nothing was planned. Ways out: the same platform at a new address, keeping ` +
        `the state: \`ferry state rebind ${pipeline}\`; another platform: \`ferry state rebuild ` +
        `${pipeline} --from-platform\` (state from what it holds), or \`ferry run ${pipeline} ` +
        `--resend-all\` (send it everything), or another FERRY_PREFIX (a state of its own).`,
      { pipeline, statePlatform, platform },
    );
  }
}
