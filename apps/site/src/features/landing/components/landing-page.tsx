import { Fragment } from 'react';
import { spacedWords } from '@/lib/letter-spacing';
import { phoneSubtitle, type AssistantEntry } from '../assistants';

/** Seconds between the fade-ins of two consecutive roles. */
export const ROLE_STAGGER_SECONDS = 0.1;

/**
 * A landing page: full-screen background, dark overlay, centred letter-spaced title,
 * subtitle and the assistant's roles fading in one after another.
 */
export function LandingPage({ assistant }: { assistant: AssistantEntry }) {
  const { background } = assistant;
  return (
    <main
      className="relative isolate flex min-h-[calc(100dvh-3.5rem)] items-center justify-center overflow-hidden px-4 pt-12 pb-32 sm:pb-24"
      aria-labelledby="landing-title"
    >
      <div
        data-testid="landing-background"
        aria-hidden="true"
        className={
          background.kind === 'class'
            ? `absolute inset-0 -z-20 ${background.className}`
            : 'absolute inset-0 -z-20 bg-slate-900 bg-cover bg-center'
        }
        style={background.kind === 'image' ? { backgroundImage: `url("${background.src}")` } : undefined}
      />
      <div
        data-testid="landing-overlay"
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-slate-950/60"
      />
      <div className="mx-auto flex max-w-4xl flex-col items-center text-center text-white">
        <div className="relative">
          {/* A soft dark pane behind the title and subtitle only: the art stays bright around them,
              but no line of it runs through the words (landing.css). */}
          <div data-testid="landing-scrim" aria-hidden="true" className="landing-scrim" />
          {/* The spaced letters are what the design shows; assistive technology reads the word itself. */}
          <h1
            id="landing-title"
            aria-label={assistant.titleText}
            className="text-[clamp(1.25rem,6.4vw,3.75rem)] leading-tight font-light tracking-wide text-balance drop-shadow-lg"
          >
            {/* Each word its own box with a wider gap after it ("s a l e s e n g i n e e r"
                read as one word). The text is still "s a l e s e n g i n e e r". */}
            {spacedWords(assistant.titleText).map((word, index) => (
              <Fragment key={index}>
                {index > 0 && ' '}
                <span data-testid="landing-title-word" className={index > 0 ? 'ms-[0.75em]' : undefined}>
                  {word}
                </span>
              </Fragment>
            ))}
          </h1>
          {/* Where the button is, as the layout puts it: below the text on a phone (the widget's own
              breakpoint, 40rem, is Tailwind's sm), on the left beside it on a wider screen. */}
          <p className="mx-auto mt-6 max-w-xl text-base text-slate-200 sm:text-lg">
            <span className="sm:hidden">{phoneSubtitle}</span>
            <span className="hidden sm:inline">{assistant.subtitle}</span>
          </p>
        </div>
        <ul aria-label="Roles" className="mt-10 flex max-w-3xl flex-wrap justify-center gap-2 sm:gap-3">
          {assistant.roles.map((role, index) => (
            <li
              key={role}
              className="landing-role rounded-full border border-white/25 bg-white/10 px-4 py-1.5 text-sm tracking-wide text-white backdrop-blur-sm sm:text-base"
              style={{ animationDelay: `${(index * ROLE_STAGGER_SECONDS).toFixed(1)}s` }}
            >
              {role}
            </li>
          ))}
        </ul>
      </div>
    </main>
  );
}
