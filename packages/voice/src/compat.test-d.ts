/**
 * Type-level drop-in check (Vitest's typecheck, and tsc): code written against @vapi-ai/web's own
 * types compiles against @engage/voice unchanged; a type error anywhere in this file fails it.
 */
import type OfficialVapi from '@vapi-ai/web';
import { expectTypeOf, it } from 'vitest';
import type { Vapi } from './client.js';

declare const ours: Vapi;
type Official = InstanceType<typeof OfficialVapi>;

// The constructor and start() accept whatever the official ones accept.
export type ConstructorAccepts =
  ConstructorParameters<typeof OfficialVapi> extends ConstructorParameters<typeof Vapi> ? true : never;
const constructorAccepts: ConstructorAccepts = true;

declare const startArgs: Parameters<Official['start']>;
void ours.start(...startArgs);
declare const sayArgs: Parameters<Official['say']>;
ours.say(...sayArgs);
declare const message: Parameters<Official['send']>[0];
ours.send(message);
declare const reconnectArgs: Parameters<Official['reconnect']>;
void ours.reconnect(...reconnectArgs);

// Listeners written for the official events fit ours.
ours.on('call-start-progress', (event: Parameters<Parameters<Official['on']>[1]>[0]) => void event);
ours.on('message', (message: unknown) => void message);
ours.on('error', (error: { type: string }) => void error.type);
ours.on('volume-level', (volume: number) => void volume);

it('accepts what the official constructor, methods and listeners accept', () => {
  expectTypeOf(constructorAccepts).toEqualTypeOf<true>();
});

export { constructorAccepts };
