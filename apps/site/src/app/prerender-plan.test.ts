import { describe, expect, it } from 'vitest';
import { checkWrittenPages, prerenderPlan, routeManifest } from './prerender-plan';
import { notFoundPage, sitePages, type SitePage } from './site-pages';

describe('the prerender plan, from the site’s page table', () => {
  it('prerenders every page the table marks, sign-in and sign-up included, and the not-found page', () => {
    const plan = prerenderPlan();
    expect(plan.map((p) => p.route)).toEqual([
      ...sitePages.filter((p) => p.prerendered).map((p) => p.path),
      notFoundPage.pathMark,
    ]);
    expect(plan.map((p) => p.name)).toEqual(
      expect.arrayContaining(['index', 'sign-in', 'sign-up', 'ediscovery', 'not-found']),
    );
    expect(plan.map((p) => p.route)).not.toContain('/profile');
  });

  it('preloads a public page’s module, never a guarded page’s; the landing pages are islands', () => {
    const byRoute = new Map(prerenderPlan().map((p) => [p.route, p]));
    expect(byRoute.get('/')).toMatchObject({
      module: 'src/app/routes/home.tsx',
      islands: true,
      content: false,
    });
    expect(byRoute.get('/sign-in')).toMatchObject({ module: 'src/app/routes/sign-in.tsx', islands: false });
    expect(byRoute.get('/ediscovery')).toMatchObject({ module: null, islands: true, content: true });
    expect(byRoute.get('/kb-import')).toMatchObject({ module: null, islands: false, content: false });
  });

  it('lists a guarded static page’s content apart, for the server to send to a signed-in caller', () => {
    const manifest = routeManifest(prerenderPlan());
    expect(manifest.content).toEqual({ '/ediscovery': 'ediscovery', '/onboarding': 'onboarding' });
  });

  it('follows a change of the table: a new page is planned and listed without a second list', () => {
    const pages: SitePage[] = [
      ...sitePages,
      { path: '/pricing', module: 'home', guarded: false, prerendered: true, islands: true },
    ];
    const plan = prerenderPlan(pages);
    expect(plan.find((p) => p.route === '/pricing')).toMatchObject({ name: 'pricing', islands: true });
    const manifest = routeManifest(plan, pages);
    expect(manifest.routes).toContain('/pricing');
    expect(manifest.pages['/pricing']).toBe('pricing');
  });

  it('lists every route of the site and the prerendered page of each that has one', () => {
    const manifest = routeManifest(prerenderPlan());
    expect(manifest.routes).toEqual(sitePages.map((p) => p.path));
    expect(manifest.pages).toMatchObject({ '/': 'index', '/sign-in': 'sign-in', '/sign-up': 'sign-up' });
    expect(manifest.pages).not.toHaveProperty('/profile');
    expect(manifest.notFound).toEqual({ page: 'not-found', pathMark: notFoundPage.pathMark });
  });
});

describe('checking what the build wrote', () => {
  const plan = prerenderPlan();
  const files = [...plan.map((p) => `${p.name}.html`), 'routes.json'];

  it('accepts exactly the planned pages (and the manifest beside them)', () => {
    expect(() => checkWrittenPages(plan, files)).not.toThrow();
  });

  it('names a missing page', () => {
    expect(() =>
      checkWrittenPages(
        plan,
        files.filter((f) => f !== 'sign-up.html'),
      ),
    ).toThrow(/missing: sign-up\.html/);
  });

  it('names a page that is not one of the site’s (an older build’s)', () => {
    expect(() => checkWrittenPages(plan, [...files, 'pricing.html'])).toThrow(
      /not pages of the site: pricing\.html/,
    );
  });
});
