// 44 px square on phones (a finger's size), compact where there is a pointer and room.
export const iconButton =
  'grid h-11 w-11 md:h-7 md:w-7 cursor-pointer place-items-center rounded-md text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-900 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:pointer-events-none disabled:opacity-40 ' +
  'dark:hover:bg-neutral-800 dark:hover:text-neutral-100';
