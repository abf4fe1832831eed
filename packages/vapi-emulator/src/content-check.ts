import { FILE_TYPES } from '@engage/vapi-contract';

/** The extensions the emulated provider stores, with their mime types: SPEC §5's, and .yml beside .yaml. */
export const SUPPORTED_TYPES: Readonly<Record<string, string>> = {
  ...FILE_TYPES,
  '.yml': 'application/x-yaml',
};
