import type { PublicConfig } from '@/lib/public-config';

/** The public configuration the widget's component tests run with: embedded services, a public key. */
export const widgetTestConfig: PublicConfig = {
  siteTitle: 'Engage',
  ownerDomain: 'engage.example',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: {
    name: 'Vapi',
    baseUrl: null,
    publicKey: 'pk_test',
    serverHoldsPrivateKey: true,
    embedded: true,
  },
};
