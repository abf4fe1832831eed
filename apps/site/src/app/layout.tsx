import { Outlet } from 'react-router';
import { TopNav } from './top-nav';

export function Layout() {
  return (
    <div className="min-h-dvh">
      <TopNav />
      <Outlet />
    </div>
  );
}
